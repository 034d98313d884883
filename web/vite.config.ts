// The front end of `calltree serve`, built by the CMake target calltree_web_dist into
// <build>/web/dist (--outDir) and embedded into the binary (server/embed_assets.cmake).
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: {
    target: "es2022",
    sourcemap: false,
    // Graphviz (WebAssembly inlined into its chunk) is loaded only by the call graph view.
    chunkSizeWarningLimit: 1200,
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
  },
});
