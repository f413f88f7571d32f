// The mutation suite: every bucket and every preprocessor form planted in a temporary tree
// must be caught with the right bucket and line, and look-alikes must not be. The planted code
// sits in raw strings, which the checker strips, so this file itself stays clean.
#include <gtest/gtest.h>

#include <string>

#include "temp_tree.hpp"

namespace vt::leakcheck::testing {
namespace {

struct Planted {
  const char* name;
  const char* code;
  const char* bucket;
  int line;
  const char* text;
};

std::string case_name(const ::testing::TestParamInfo<Planted>& p) { return p.param.name; }
void PrintTo(const Planted& p, std::ostream* os) { *os << p.name; }

class Caught : public ::testing::TestWithParam<Planted> {};

TEST_P(Caught, WithBucketAndLine) {
  const Planted& p = GetParam();
  TempTree tree;
  tree.write("vt/src/planted.cpp", p.code);
  const std::vector<TreeHit> hits = counted(tree.audit());
  ASSERT_EQ(hits.size(), 1u) << p.code;
  EXPECT_EQ(hits[0].file, "vt/src/planted.cpp");
  EXPECT_EQ(hits[0].bucket, p.bucket);
  EXPECT_EQ(hits[0].line, p.line);
  EXPECT_EQ(hits[0].text, p.text);
  const RunResult r = tree.run();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(std::string("leak: ") + p.bucket + " has 1 hit"), std::string::npos) << r.out;
}

const Planted kApi[] = {
    {"cuda_camel", R"src(int x;
cudaMalloc(&p, n);
)src",
     "cuda.api", 2, "cudaMalloc"},
    {"cuda_snake", "void f() {\n  int cuda_ptr = 0;\n}\n", "cuda.api", 2, "cuda_ptr"},
    {"cuda_macro", "int e = CUDA_SUCCESS;\n", "cuda.api", 1, "CUDA_SUCCESS"},
    {"cuda_type", "\n\ncudaStream_t s;\n", "cuda.api", 3, "cudaStream_t"},
    {"cuda_nv_type", "__nv_bfloat16 h;\n", "cuda.api", 1, "__nv_bfloat16"},
    {"cuda_driver_type", "CUresult r;\n", "cuda.api", 1, "CUresult"},
    {"cuda_driver_call", "int r = cuInit(0);\n", "cuda.api", 1, "cuInit"},
    {"cuda_kernel_keyword", "__global__ void k() {}\n", "cuda.api", 1, "__global__"},
    {"cuda_library", "cublasHandle_t h;\n", "cuda.api", 1, "cublasHandle_t"},
    {"hip_camel", "int e = hipMalloc(&p, n);\n", "hip.api", 1, "hipMalloc"},
    {"hip_snake", "auto hip_stream = 0;\n", "hip.api", 1, "hip_stream"},
    {"hip_macro", "int v = HIP_VERSION;\n", "hip.api", 1, "HIP_VERSION"},
    {"hip_platform_in_define", "#define ON_AMD __HIP_PLATFORM_AMD__\n", "hip.api", 1, "__HIP_PLATFORM_AMD__"},
    {"hip_library", "rocblas_handle h;\n", "hip.api", 1, "rocblas_handle"},
    {"vulkan_camel", "vkCreateInstance(&ci, 0, &i);\n", "vulkan.api", 1, "vkCreateInstance"},
    {"vulkan_type", "VkInstance inst;\n", "vulkan.api", 1, "VkInstance"},
    {"vulkan_macro", "int r = VK_SUCCESS;\n", "vulkan.api", 1, "VK_SUCCESS"},
    {"vulkan_function_pointer", "PFN_vkVoidFunction f;\n", "vulkan.api", 1, "PFN_vkVoidFunction"},
};
INSTANTIATE_TEST_SUITE_P(Api, Caught, ::testing::ValuesIn(kApi), case_name);

// Expected texts that are a bare device name are split in two literals: a whole string
// literal naming a device would be a hit in this file.
const Planted kValue[] = {
    {"cuda_constant", "auto d = kCUDA;\n", "cuda.value", 1, "kCUDA"},
    {"cuda_enumerator", "\nauto d = Device::Cuda;\n", "cuda.value", 2,
     "Cu"
     "da"},
    {"cuda_flag", "bool is_cuda = false;\n", "cuda.value", 1, "is_cuda"},
    {"cuda_string", R"src(if (name == "cuda") {}
)src",
     "cuda.value", 1, "\"cuda\""},
    {"cuda_string_upper", R"src(f("CUDA");)src", "cuda.value", 1, "\"CUDA\""},
    {"cuda_selector_string", R"src(open("cuda:1");)src", "cuda.value", 1, "\"cuda:1\""},
    {"hip_constant", "auto k = kROCm;\n", "hip.value", 1, "kROCm"},
    {"hip_enumerator", "auto b = Backend::HIP;\n", "hip.value", 1,
     "H"
     "IP"},
    {"hip_wide_string", R"src(auto s = L"rocm";)src", "hip.value", 1, "\"rocm\""},
    {"hip_raw_string", R"src(auto s = R"(hip)";)src", "hip.value", 1, "\"hip\""},
    {"vulkan_enumerator", "auto k = Kind::Vulkan;\n", "vulkan.value", 1,
     "Vul"
     "kan"},
    {"vulkan_flag", "bool use_vulkan;\n", "vulkan.value", 1, "use_vulkan"},
    {"vulkan_utf8_string", R"src(auto s = u8"vulkan";)src", "vulkan.value", 1, "\"vulkan\""},
};
INSTANTIATE_TEST_SUITE_P(Value, Caught, ::testing::ValuesIn(kValue), case_name);

const Planted kInclude[] = {
    {"cuda_angle", "#include <cuda_runtime.h>\n", "cuda.include", 1, "cuda_runtime.h"},
    {"cuda_quoted", "\n#include \"cuda.h\"\n", "cuda.include", 2, "cuda.h"},
    {"cuda_include_next", "#include_next <cublas_v2.h>\n", "cuda.include", 1, "cublas_v2.h"},
    {"cuda_has_include", "#if __has_include(<cuda.h>)\n#endif\n", "cuda.include", 1, "cuda.h"},
    {"cuda_backend_header", "#include \"backends/cuda/memory.hpp\"\n", "cuda.include", 1, "backends/cuda/memory.hpp"},
    {"hip_angle", "#include <hip/hip_runtime.h>\n", "hip.include", 1, "hip/hip_runtime.h"},
    {"hip_spaced", "#  include <rocblas/rocblas.h>\n", "hip.include", 1, "rocblas/rocblas.h"},
    {"vulkan_angle", "#include <vulkan/vulkan.h>\n", "vulkan.include", 1, "vulkan/vulkan.h"},
    {"vulkan_relative_backend", "#include \"../backends/vulkan/queue.hpp\"\n", "vulkan.include", 1,
     "../backends/vulkan/queue.hpp"},
    {"other_backend", "#include \"backends/cpu/plugin.hpp\"\n", "backend.include", 1, "backends/cpu/plugin.hpp"},
};
INSTANTIATE_TEST_SUITE_P(Include, Caught, ::testing::ValuesIn(kInclude), case_name);

const Planted kCondition[] = {
    {"if", "#if VT_WITH_CUDA\n#endif\n", "cuda.cond", 1, "VT_WITH_CUDA"},
    {"ifdef", "#ifdef __CUDACC__\n#endif\n", "cuda.cond", 1, "__CUDACC__"},
    {"ifndef", "#ifndef VT_BACKEND_VULKAN\n#endif\n", "vulkan.cond", 1, "VT_BACKEND_VULKAN"},
    {"elif", "#if 0\n#elif USE_ROCM\n#endif\n", "hip.cond", 2, "USE_ROCM"},
    {"defined_parens", "#if defined(__HIP_PLATFORM_AMD__)\n#endif\n", "hip.cond", 1, "__HIP_PLATFORM_AMD__"},
    {"defined_bare", "#if defined VT_WITH_VULKAN\n#endif\n", "vulkan.cond", 1, "VT_WITH_VULKAN"},
    {"compound_and", "#if defined(NDEBUG) && VT_WITH_CUDA\n#endif\n", "cuda.cond", 1, "VT_WITH_CUDA"},
    {"compound_nested", "#if !defined(NDEBUG) || (X > 1 && defined(VK_VERSION_1_3))\n#endif\n", "vulkan.cond", 1,
     "VK_VERSION_1_3"},
    {"elifdef", "#if 0\n#elifdef VT_WITH_CUDA\n#endif\n", "cuda.cond", 2, "VT_WITH_CUDA"},
    {"elifndef", "#if 0\n#elifndef __HIPCC__\n#endif\n", "hip.cond", 2, "__HIPCC__"},
    {"continued_line", "#if defined(A) && \\\n    defined(VT_WITH_CUDA)\n#endif\n", "cuda.cond", 2, "VT_WITH_CUDA"},
    {"spaced_hash", "  #  ifdef __NVCC__\n#endif\n", "cuda.cond", 1, "__NVCC__"},
    {"comment_before_name", "#/* x */ifdef VT_BACKEND_HIP\n#endif\n", "hip.cond", 1, "VT_BACKEND_HIP"},
    {"vendor_version", "#if CUDART_VERSION >= 11000\n#endif\n", "cuda.cond", 1, "CUDART_VERSION"},
};
INSTANTIATE_TEST_SUITE_P(Condition, Caught, ::testing::ValuesIn(kCondition), case_name);

// Code that a text search would misread; the one real reference must still be found on its line.
const Planted kLexing[] = {
    {"after_slashes_in_string", R"src(const char* s = "// not a comment"; int cudaX;)src", "cuda.api", 1, "cudaX"},
    {"after_quote_in_char", R"src(char q = '"'; int vkX;)src", "vulkan.api", 1, "vkX"},
    {"after_odd_digit_separator", "int n = 0x1'F; cudaFree(p);\n", "cuda.api", 1, "cudaFree"},
    {"after_apostrophe_in_error", "#error don't\ncudaFree(p);\n", "cuda.api", 2, "cudaFree"},
    {"after_multiline_raw_string", R"src(auto s = R"x(
)" cudaMalloc
)x"; int cudaY;)src",
     "cuda.api", 3, "cudaY"},
    {"after_quote_in_comment", "/* \"x\n */ int hipZ;\n", "hip.api", 2, "hipZ"},
    {"split_by_continuation", "int cuda\\\nMalloc;\n", "cuda.api", 1, "cudaMalloc"},
};
INSTANTIATE_TEST_SUITE_P(Lexing, Caught, ::testing::ValuesIn(kLexing), case_name);

struct LookAlike {
  const char* name;
  const char* code;
};

void PrintTo(const LookAlike& p, std::ostream* os) { *os << p.name; }

class NotCaught : public ::testing::TestWithParam<LookAlike> {};

TEST_P(NotCaught, LeavesTheTreeClean) {
  TempTree tree;
  tree.write("vt/src/look_alike.cpp", GetParam().code);
  const Audit audit = tree.audit();
  EXPECT_EQ(audit.files_scanned, 1);
  EXPECT_TRUE(audit.hits.empty()) << GetParam().code << "\nfirst hit: " << audit.hits[0].text;
  EXPECT_EQ(tree.run().code, 0);
}

const LookAlike kLookAlikes[] = {
    {"line_comment", "// cudaMalloc(p);\n"},
    {"block_comment", "/* vkCreateInstance\n #include <cuda.h> */\n"},
    {"continued_line_comment", "// continued \\\ncudaFree(p);\n"},
    {"string_with_identifier", R"src(auto s = "cudaMalloc";)src"},
    {"string_with_device_word", R"src(auto s = "hip kernels";)src"},
    {"string_with_glob", R"src(auto s = "cuda*";)src"},
    {"wide_string", R"src(auto s = L"VkInstance";)src"},
    {"raw_string_with_directives", "auto s = R\"(#include <cuda.h>\n#ifdef __CUDACC__\n)\";\n"},
    {"raw_string_with_fake_end", R"src(auto s = R"d(a )" vkFoo)d";)src"},
    {"raw_utf8_string", R"src(auto s = u8R"(VkInstance)";)src"},
    {"character_literals", R"src(char c = 'v'; char d = '\''; char e = '"';)src"},
    {"digit_separators", "auto x = 1'000'000;\n"},
    {"barracuda", "int barracuda = 0;\n"},
    {"hipster", "int hipster;\n"},
    {"chip_count", "int chip_count;\n"},
    {"vkey", "int vkey, Vkey;\n"},
    {"lowercase_continuation", "int cudagraph, rocmless, hipbone;\n"},
    {"uppercase_words", "int CUSTOM, HIPPO, CUBE;\n"},
    {"cumulative_lengths", "int cu_seqlens_q;\n"},
    {"similar_short_names", "int vmax, kvcache, cube, cub_root;\n"},
    {"include_chip", "#include <chip.h>\n#include \"barracuda.h\"\n"},
    {"include_standard", "#include <cuchar>\n#include <curses.h>\n#include \"vt/device.hpp\"\n"},
    {"condition_on_look_alikes", "#if CHIP_COUNT > 2\n#elif defined(HIPSTER)\n#endif\n"},
    {"condition_in_comment", "#if 0 // VT_WITH_CUDA\n#endif\n"},
};
std::string look_alike_name(const ::testing::TestParamInfo<LookAlike>& p) { return p.param.name; }
INSTANTIATE_TEST_SUITE_P(LookAlikes, NotCaught, ::testing::ValuesIn(kLookAlikes), look_alike_name);

TEST(Layers, EveryConfiguredLayerIsScanned) {
  TempTree tree;
  const char* code = "int x = cudaFree(p);\n";
  for (const char* file : {"vt/a.hpp", "ops/b.h", "reference/c.cpp", "tools/t/d.cc", "tests/core/e.cpp"}) {
    tree.write(file, code);
  }
  const std::vector<TreeHit> hits = counted(tree.audit());
  ASSERT_EQ(hits.size(), 5u);
  EXPECT_EQ(hits[0].file, "ops/b.h");
  EXPECT_EQ(hits[4].file, "vt/a.hpp");
}

TEST(Layers, BackendsTheirTestDriversAndOtherFilesAreNot) {
  TempTree tree;
  const char* code = "int x = cudaFree(p);\n";
  for (const char* file : {"backends/cuda/a.cpp", "tests/backends/cuda/b.cpp", "vt/notes.txt", "docs/c.cpp"}) {
    tree.write(file, code);
  }
  const Audit audit = tree.audit();
  EXPECT_EQ(audit.files_scanned, 0);
  EXPECT_EQ(tree.run().code, 0);
}

}  // namespace
}  // namespace vt::leakcheck::testing
