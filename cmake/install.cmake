# install.cmake — what `cmake --install` puts in place (docs/library.md, "Installing"):
#   bin/calltree                              the command-line tool
#   include/calltree/...                      the public headers
#   lib/libcalltree.a, lib/libcalltree.so*    the static and shared library
#   lib/cmake/calltree/                       find_package(calltree CONFIG): calltree::calltree
#                                             (shared), calltree::calltree_static
#   lib/pkgconfig/calltree.pc                 pkg-config --cflags --libs calltree
#   share/man/man1/, bash and zsh completions (cmake/docs.cmake)
include(CMakePackageConfigHelpers)

set(CALLTREE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/calltree)

install(TARGETS calltree_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(TARGETS calltree calltree_shared EXPORT calltreeTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
                NAMELINK_COMPONENT development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/calltree DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development
        FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/include/calltree/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/calltree COMPONENT development)
install(EXPORT calltreeTargets NAMESPACE calltree:: DESTINATION ${CALLTREE_CMAKE_DIR}
        COMPONENT development)

configure_package_config_file(cmake/calltreeConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/calltreeConfig.cmake
                              INSTALL_DESTINATION ${CALLTREE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/calltreeConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
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
