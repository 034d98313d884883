# install.cmake — what `cmake --install` puts in place (docs/library.md, "Installing"):
#   bin/calltree                              the command-line tool
#   include/calltree/...                      the public headers
#   lib/libcalltree.a, lib/libcalltree.so*    the static and shared library
#   lib/cmake/calltree/                       find_package(calltree CONFIG): calltree::calltree
#                                             (shared), calltree::calltree_static (with the
#                                             compression libraries' development packages)
#   lib/pkgconfig/calltree.pc                 pkg-config --cflags --libs calltree
#   share/doc/calltree/*.md, images/          the documentation (library.md, format.md, ...)
#   share/doc/calltree/examples/              the library's examples, a CMake project
#   share/man/man1/, bash and zsh completions (cmake/docs.cmake)
include(CMakePackageConfigHelpers)

set(CALLTREE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/calltree)

if(CALLTREE_TOOL)
  install(TARGETS calltree_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()
# Two export sets: the shared library's users need nothing else, the static library's also
# link the compression libraries (calltreeConfig.cmake looks for those only for it).
install(TARGETS calltree_shared EXPORT calltreeTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
                NAMELINK_COMPONENT development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS calltree EXPORT calltreeStaticTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/calltree DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
        FILES_MATCHING PATTERN "*.h")
# The documentation the headers point to (share/doc/calltree/format.md, ...), library.md first,
# with the images its pages show (share/doc/calltree/images/).
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT development
        FILES_MATCHING PATTERN "*.md" PATTERN "*.png" PATTERN "architecture.md" EXCLUDE)
# The library's examples, a project of their own (find_package(calltree)): library.md's.
install(FILES examples/CMakeLists.txt examples/top.cc examples/top_functions.cc examples/callers.cc
              examples/count_calls.cc examples/diff_files.cc examples/file_costs.cc
              examples/where_is.cc examples/tour.cc
              examples/recurse.callgrind
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples COMPONENT development)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/include/calltree/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/calltree COMPONENT development)
install(EXPORT calltreeTargets NAMESPACE calltree:: DESTINATION ${CALLTREE_CMAKE_DIR}
        COMPONENT development)
install(EXPORT calltreeStaticTargets NAMESPACE calltree:: DESTINATION ${CALLTREE_CMAKE_DIR}
        COMPONENT development)

configure_package_config_file(cmake/calltreeConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/calltreeConfig.cmake
                              INSTALL_DESTINATION ${CALLTREE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/calltreeConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/calltreeConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/calltreeConfigVersion.cmake
        DESTINATION ${CALLTREE_CMAKE_DIR} COMPONENT development)

# The .pc file finds its prefix from where it lies (${pcfiledir}), so an install made with
# `cmake --install --prefix DIR` anywhere is used as it is.
file(RELATIVE_PATH CALLTREE_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" CALLTREE_PC_TO_PREFIX "${CALLTREE_PC_TO_PREFIX}")
configure_file(cmake/calltree.pc.in ${CMAKE_CURRENT_BINARY_DIR}/calltree.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/calltree.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)
