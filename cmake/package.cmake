# package.cmake — `cpack -G DEB` in the build directory: two packages, installed under /usr.
#   calltree_VERSION_ARCH.deb: the tool, the headers, both libraries, the CMake and pkg-config
#     files, the docs, the man pages and the completions (the components runtime and
#     development). Its dependencies are computed by dpkg-shlibdeps from the shared libraries
#     the binaries link (libc6, libstdc++6, zlib1g, libzstd1, liblzma5, libisal2, libbz2-1.0,
#     libsqlite3-0, libre2-9, ...): Debian runtime packages only, whatever this machine has
#     installed; no Python and no pandas.
#   python3-calltree_VERSION_ARCH.deb (when the build has the Python package, CALLTREE_PYTHON):
#     the Python package (component python), which needs calltree's libcalltree.so of the same
#     version, pandas, and the python3 its native module was built for (below).
set(CPACK_PACKAGE_NAME calltree)
set(CPACK_PACKAGE_VENDOR "calltree")
set(CPACK_PACKAGE_CONTACT "calltree maintainers <calltree@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_INSTALL_DIRECTORY calltree)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# (Each package's description begins with its summary line: no CPACK_PACKAGE_DESCRIPTION_SUMMARY,
# which CPack would put before both.)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Read, check, annotate, diff and merge Callgrind-format profiles\n\
calltree reads the Callgrind profile format written by valgrind's callgrind and\n\
cachegrind, Xdebug, pyprof2calltree, pprof and others: it checks files, converts them,\n\
prints callgrind_annotate's report with right inclusive costs, diffs and merges\n\
profiles, and serves them to a browser. The package holds the tool, its man pages\n\
and completions, and the C++20 library (headers, static and shared, CMake and\n\
pkg-config files). The Python package is python3-calltree.")
# The static library's users link zlib, zstd, xz, ISA-L, bzip2 and SQLite themselves (calltree.pc and
# calltreeConfig.cmake name them): suggested, not required, so the runtime needs nothing else.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS 
    "zlib1g-dev, libzstd-dev, liblzma-dev, libisal-dev, libbz2-dev, libsqlite3-dev, pkg-config")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_COMPONENTS_ALL runtime development)
set(CPACK_COMPONENT_RUNTIME_GROUP main)
set(CPACK_COMPONENT_DEVELOPMENT_GROUP main)
set(CPACK_DEBIAN_MAIN_PACKAGE_NAME calltree)
# The Python package (python/), a package of its own, so that the tool's users get no Python.
# Its native module, _calltree.cpython-3XY-ARCH.so, is for one python3 version (the ABI tag in
# its name: another version's python3 does not even look for it), so the package depends on that
# version, as Debian's own packages of extension modules do (dh_python3: `python3 (<< 3.12),
# python3 (>= 3.11~)`); built on Debian 12, it installs where python3 is 3.11.
if(CALLTREE_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL python)
  set(CPACK_COMPONENT_PYTHON_GROUP python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-calltree)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  math(EXPR calltree_py_next "${Python3_VERSION_MINOR} + 1")
  # (No dpkg-shlibdeps: the module links libcalltree.so.N of the calltree package, which no
  # installed package provides yet; calltree brings libc6 and libstdc++6.)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SHLIBDEPS OFF)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_GENERATE_SHLIBS OFF)  # (a module, no library of others)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
      "calltree (= ${PROJECT_VERSION}), python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}~), python3 (<< ${Python3_VERSION_MAJOR}.${calltree_py_next}), python3-pandas")
  set(CPACK_DEBIAN_PYTHON_DESCRIPTION
      "Callgrind-format profiles as pandas DataFrames\n\
The Python package calltree reads Callgrind-format profiles with calltree's C++\n\
library and gives their functions, callers, callees and diffs as pandas\n\
DataFrames, with the numbers of the calltree tool.")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_SOURCE_DIR}/cmake/debian/prerm)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
endif()
include(CPack)
