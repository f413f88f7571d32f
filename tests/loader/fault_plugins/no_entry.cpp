// A loadable library that looks like a plugin by its file name but exports no entry symbol:
// only a near miss, so the loader has to report dlsym's answer, not guess.
extern "C" __attribute__((visibility("default"))) int vt_plugin_entry_v0(void) { return 0; }
