#include "vision/memory.h"

#include <cstdlib>  // (defines __GLIBC__ under glibc)
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace arbitre::vision {

void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace arbitre::vision
