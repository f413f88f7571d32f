#!/usr/bin/env bash
# Installs the Debian packages vt builds against, only those missing (safe to re-run).
set -euo pipefail
packages=(
  cmake g++ make libgtest-dev libgmock-dev        # build and tests
  clang libclang-rt-14-dev                         # libFuzzer and sanitizer runtimes
  clang-format                                     # scripts/format.sh (the tree's style, checked in CI)
  libvulkan-dev glslang-tools glslc spirv-tools mesa-vulkan-drivers vulkan-tools vulkan-validationlayers  # Vulkan, lavapipe for CI
  hipcc libamdhip64-dev rocm-device-libs           # HIP for AMD GPUs
  libtbb-dev                                       # the CPU fast provider
  python3-numpy                                    # golden vectors for the reference
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
