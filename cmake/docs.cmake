# docs.cmake — the man pages and shell completions, made by the tool itself from the table
# behind --help (cli/command.h, cli/docs_gen.cc) at every build, and installed:
#   share/man/man1/calltree.1, calltree-COMMAND.1
#   share/bash-completion/completions/calltree
#   share/zsh/vendor-completions/_calltree
# and `make docs` (the target calltree_api_docs): the API reference of include/ by Doxygen.
# calltree(3), the library's page, is written by hand (docs/calltree.3) and installed with the
# library, with or without the tool.
install(FILES docs/calltree.3 DESTINATION ${CMAKE_INSTALL_MANDIR}/man3 COMPONENT development)
if(NOT CALLTREE_TOOL)
  return()  # (the rest is made by the tool; the API reference needs nothing of it, but is a
            # developer's, beside the tool)
endif()
set(CALLTREE_MAN_DIR ${CMAKE_BINARY_DIR}/man)
set(CALLTREE_COMPLETION_DIR ${CMAKE_BINARY_DIR}/completion)
add_custom_target(calltree_man_pages ALL
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CALLTREE_MAN_DIR} ${CALLTREE_COMPLETION_DIR}
  COMMAND $<TARGET_FILE:calltree_cli> --man-dir=${CALLTREE_MAN_DIR}
  COMMAND $<TARGET_FILE:calltree_cli> --completion=bash > ${CALLTREE_COMPLETION_DIR}/calltree
  COMMAND $<TARGET_FILE:calltree_cli> --completion=zsh > ${CALLTREE_COMPLETION_DIR}/_calltree
  DEPENDS calltree_cli
  COMMENT "Man pages and shell completions from the command table"
  VERBATIM)
install(DIRECTORY ${CALLTREE_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime
        FILES_MATCHING PATTERN "*.1")
install(FILES ${CALLTREE_COMPLETION_DIR}/calltree
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions COMPONENT runtime)
install(FILES ${CALLTREE_COMPLETION_DIR}/_calltree
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/zsh/vendor-completions COMPONENT runtime)

# The API reference: Doxygen over the public headers, warnings as errors (docs/library.md).
find_program(DOXYGEN_EXECUTABLE doxygen)
if(DOXYGEN_EXECUTABLE)
  configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${CMAKE_BINARY_DIR}/Doxyfile @ONLY)
  add_custom_target(calltree_api_docs
    COMMAND ${DOXYGEN_EXECUTABLE} ${CMAKE_BINARY_DIR}/Doxyfile
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "API reference (Doxygen) in ${CMAKE_BINARY_DIR}/api"
    VERBATIM)
endif()
