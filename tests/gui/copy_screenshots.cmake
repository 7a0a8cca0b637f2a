# cmake -DFROM=<build>/tests/gui/screenshots -DTO=<source>/docs/images/gui -P copy_screenshots.cmake
# Copies the screenshots the user guide shows (per language) from the GUI test's output.
set(shown window-irma window-yams panel-irma panel-yams window-irma-corrected window-irma-refused)
foreach(lang en fr)
  foreach(name IN LISTS shown)
    set(png ${FROM}/${lang}/${name}.png)
    if(NOT EXISTS ${png})
      message(FATAL_ERROR "${png} is missing: run the GUI test first (ctest -R gui_demo)")
    endif()
    file(COPY_FILE ${png} ${TO}/${lang}/${name}.png)
  endforeach()
endforeach()
