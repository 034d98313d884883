# package.cmake — `cpack -G DEB` in the build directory: calltree_VERSION_ARCH.deb with the
# tool, the headers, both libraries, the CMake and pkg-config files, the man pages and the
# completions, installed under /usr. Its dependencies are computed by dpkg-shlibdeps from the
# shared libraries the binaries link (libc6, libstdc++6, zlib1g, libzstd1, liblzma5, libisal2, libbz2-1.0,
# libsqlite3-0, libre2-9, ...): Debian runtime packages only, whatever this machine has installed.
set(CPACK_PACKAGE_NAME calltree)
set(CPACK_PACKAGE_VENDOR "calltree")
set(CPACK_PACKAGE_CONTACT "calltree maintainers <calltree@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Read, check, annotate, diff and merge Callgrind-format profiles")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_INSTALL_DIRECTORY calltree)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "calltree reads the Callgrind profile format written by valgrind's callgrind and\n\
cachegrind, Xdebug, pyprof2calltree, pprof and others: it checks files, converts them,\n\
prints callgrind_annotate's report with right inclusive costs, diffs and merges\n\
profiles, and serves them to a browser. The package holds the tool, its man pages\n\
and completions, and the C++20 library (headers, static and shared, CMake and\n\
pkg-config files).")
# The static library's users link zlib, zstd, xz, ISA-L, bzip2 and SQLite themselves (calltree.pc and
# calltreeConfig.cmake name them): suggested, not required, so the runtime needs nothing else.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS 
    "zlib1g-dev, libzstd-dev, liblzma-dev, libisal-dev, libbz2-dev, libsqlite3-dev, pkg-config")
include(CPack)
