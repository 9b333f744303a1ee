#!/usr/bin/env bash
# Installs the Debian packages tethersim needs to build, test and plot -
# only those that are missing, so running it again does nothing.
# Uses sudo when not run as root.
set -euo pipefail

packages=(
  build-essential cmake git pkg-config procps
  openmpi-bin libopenmpi-dev
  libhdf5-openmpi-dev hdf5-tools
  libeigen3-dev libboost-program-options-dev libgtest-dev
  librandom123-dev libtoml11-dev nlohmann-json3-dev
  python3 python3-numpy python3-h5py python3-matplotlib
  # Replaying recorded runs on a modelled cluster (tools/scaling_replay.py).
  libsimgrid-dev
  # pip install ./python into a virtual environment, without downloads
  # (tests/install/python_package.sh).
  python3-venv python3-setuptools
  # Reading trajectories with other tools (tests/tools: MDAnalysis's H5MD
  # reader, GSD export for OVITO and freud) and observables as DataFrames.
  python3-mdanalysis python3-gsd python3-pandas
  # Rendering a trajectory headless through its XDMF sidecar (a test and
  # tools/render_paraview.py).
  paraview python3-paraview xvfb xauth
  # The job scripts in jobs/slurm, tested on a single-node Slurm cluster on
  # localhost (tests/slurm).
  slurm-wlm munge
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "setup: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
