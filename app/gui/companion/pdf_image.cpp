#include "app/gui/companion/pdf_image.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace arbitre::app::gui::companion {
namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);  // the C locale's point, whatever the UI's
  return text;
}

}  // namespace

std::string write_pdf_image(const std::string& path, const std::vector<std::uint8_t>& rgb, int width,
                            int height, PdfPage page) {
  if (width <= 0 || height <= 0 ||
      rgb.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3) {
    return "the picture is empty";
  }
  uLongf packed_size = compressBound(static_cast<uLong>(rgb.size()));
  std::string packed(packed_size, '\0');
  if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size, rgb.data(),
                static_cast<uLong>(rgb.size()), Z_BEST_COMPRESSION) != Z_OK) {
    return "cannot compress the picture";
  }
  packed.resize(packed_size);

  if ((width > height) != (page.width_pt > page.height_pt)) std::swap(page.width_pt, page.height_pt);
  const double room_w = page.width_pt - 2 * page.margin_pt;
  const double room_h = page.height_pt - 2 * page.margin_pt;
  const double scale = std::min(room_w / width, room_h / height);
  const double w = width * scale, h = height * scale;
  const double x = (page.width_pt - w) / 2, y = page.height_pt - page.margin_pt - h;  // top aligned
  const std::string content = "q " + number(w) + " 0 0 " + number(h) + " " + number(x) + " " +
                              number(y) + " cm /Sheet Do Q\n";

  std::ostringstream out;
  std::vector<std::size_t> offsets;
  const auto object = [&](const std::string& body) {
    offsets.push_back(static_cast<std::size_t>(out.tellp()));
    out << offsets.size() << " 0 obj\n" << body << "\nendobj\n";
  };
  out << "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  object("<< /Type /Catalog /Pages 2 0 R >>");
  object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + number(page.width_pt) + " " +
         number(page.height_pt) +
         "] /Resources << /XObject << /Sheet 4 0 R >> >> /Contents 5 0 R >>");
  object("<< /Type /XObject /Subtype /Image /Width " + std::to_string(width) + " /Height " +
         std::to_string(height) +
         " /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length " +
         std::to_string(packed.size()) + " >>\nstream\n" + packed + "\nendstream");
  object("<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "endstream");
  object("<< /Producer (Arbitre) >>");
  const std::size_t xref = static_cast<std::size_t>(out.tellp());
  out << "xref\n0 " << offsets.size() + 1 << "\n0000000000 65535 f \n";
  for (const std::size_t offset : offsets) {
    char line[24];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", offset);
    out << line;
  }
  out << "trailer\n<< /Size " << offsets.size() + 1 << " /Root 1 0 R /Info 6 0 R >>\nstartxref\n"
      << xref << "\n%%EOF\n";

  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  const std::string bytes = out.str();
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) return "cannot write " + path;
  return {};
}

}  // namespace arbitre::app::gui::companion
