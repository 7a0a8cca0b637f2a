// The memory of frame-sized images kept by the process between frames.
//
// The readers make a dozen images the size of the frame each frame (a 1280x720 Lab image in
// floats is 11 MB) and free them at its end. glibc gives such blocks back to the system on free
// (mapped apart above its mmap threshold, or trimmed off the top of the heap) and the next
// frame maps them again, page by page, zeroed: measured on the pion reader, a fifth of a frame
// (docs/benchmarks.md, "Memory kept between frames"). keep_freed_memory() asks glibc to keep
// them: blocks under 256 MB come from the heap, and the heap is not trimmed under 1 GB free. The
// largest memory the process uses does not change (the blocks are the same); what it has once
// used stays its own. Process-wide: the programs that read frames (arbitre, arbitre-gui, the
// readers' benchmarks) call it once at start-up. Nothing elsewhere than glibc.
#pragma once

namespace arbitre::vision {

void keep_freed_memory();

}  // namespace arbitre::vision
