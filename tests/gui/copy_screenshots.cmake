# cmake -DFROM=<build>/tests/gui/screenshots -DTO=<source>/docs/images/gui -P copy_screenshots.cmake
# Copies the screenshots the user guide shows (per language) from the GUI test's output.
# The main window's (gui_demo_en / gui_demo_fr) and the companion windows' (gui_companion_test);
# the network camera lost (gui_camera_lost, in English only).
set(shown window-irma window-yams panel-irma panel-yams window-irma-corrected window-irma-refused
    window-irma-live-corrected live-yams-camera
    companion-history-irma companion-history-yams companion-history-records companion-history-chart
    companion-calibration-mat companion-calibration-find companion-calibration-colours
    companion-calibration-zones companion-calibration-save)
foreach(lang en fr)
  foreach(name IN LISTS shown)
    set(png ${FROM}/${lang}/${name}.png)
    if(NOT EXISTS ${png})
      message(FATAL_ERROR "${png} is missing: run the GUI tests first (ctest -R gui)")
    endif()
    file(COPY_FILE ${png} ${TO}/${lang}/${name}.png)
  endforeach()
endforeach()
set(png ${FROM}/../camera/window-camera-lost.png)
if(NOT EXISTS ${png})
  message(FATAL_ERROR "${png} is missing: run the GUI tests first (ctest -R gui)")
endif()
file(COPY_FILE ${png} ${TO}/en/window-camera-lost.png)
