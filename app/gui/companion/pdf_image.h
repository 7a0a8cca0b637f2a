// A one-page PDF holding one picture: how a score sheet is exported as PDF with nothing more than
// Debian's wx 3.2 and zlib (wxGTK's print-to-file needs a dialog, cairo's PDF surface needs
// headers the project does not install). The picture is fitted, aspect kept, inside a page of
// the given size with a margin; it stays lossless (Flate, as in PNG).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace arbitre::app::gui::companion {

struct PdfPage {
  double width_pt = 595.28;  // A4 portrait; swapped when the picture is wider than tall
  double height_pt = 841.89;
  double margin_pt = 36;
};

// Writes `rgb` (width x height pixels, 3 bytes each, rows top to bottom) as a PDF file. Returns
// the problem in words ("cannot write ..."), or an empty string.
std::string write_pdf_image(const std::string& path, const std::vector<std::uint8_t>& rgb, int width,
                            int height, PdfPage page = {});

}  // namespace arbitre::app::gui::companion
