# npm_ci.cmake — `npm ci` in web/, only when package-lock.json differs from the one the
# installed node_modules came from (its SHA-256 is kept in node_modules/.calltree-lock): the
# build directories of one work tree (build, build-asan, build-release, ...) share one install.
#
#   cmake -DNPM=/usr/bin/npm -DWEB=<source>/web -P npm_ci.cmake
cmake_minimum_required(VERSION 3.25)
file(SHA256 "${WEB}/package-lock.json" want)
set(mark "${WEB}/node_modules/.calltree-lock")
set(have "")
if(EXISTS "${mark}")
  file(READ "${mark}" have)
endif()
if(NOT have STREQUAL want)
  execute_process(COMMAND "${NPM}" ci --no-audit --no-fund --loglevel=error
                  WORKING_DIRECTORY "${WEB}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npm ci failed in ${WEB} (exit ${rc})")
  endif()
  file(WRITE "${mark}" "${want}")
endif()
