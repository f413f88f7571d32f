// Symbol visibility of the core library: everything is hidden unless marked VT_API.
#pragma once
#if defined(__GNUC__)
#define VT_API __attribute__((visibility("default")))
#else
#define VT_API
#endif
