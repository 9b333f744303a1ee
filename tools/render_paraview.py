#!/usr/bin/env python3
"""Render a tethersim trajectory with ParaView (a pvbatch script).

Usage:
    xvfb-run -a pvbatch render_paraview.py XDMF OUT.png [--time T] [--all-tethers]

XDMF is the trajectory.xdmf sidecar of a run (it points into trajectory.h5
next to it). The script opens it with ParaView's XDMFReader, shows the
particles block as point Gaussians coloured by species (absent particles,
id -1, are dropped) and the tethers block as thin grey lines, on a white
background, resets the camera and saves a 1024x768 screenshot. The time
shown is the last frame, or the frame nearest to --time T.

When h5py can be imported (Debian's pvbatch runs the system Python, so
python3-h5py works) trajectory.h5 supplies the species names for the colour
legend, the model name for the title and the species radii, which size the
points. As in render_frame.py, species that are large next to the box
(membrane shells, active zones) are then drawn as translucent wireframe
spheres, and the tethers to them are hidden unless --all-tethers is given.
Without h5py species are numbered and all points have one size.

1-D and 2-D runs are viewed straight down the z axis. Sidecars that give
1-D runs the geometry type "X" (which ParaView's XDMF 2 reader rejects,
then crashes) are refused; current ones use X_Y_Z. Exit codes: 0 written,
2 bad input (missing file, not a tethersim XDMF file, frameless or "X"
geometry).

Note on -noreset: Xvfb resets itself when its last client disconnects, and
a connection attempted during the reset fails ("bad X server connection",
SIGABRT). The script opens its render view first to avoid that window; for
scripted use, `xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" pvbatch ...`
rules it out.
"""

import argparse
import math
import os
import re
import sys

IMAGE_SIZE = [1024, 768]
VIEW_ELEVATION, VIEW_AZIMUTH = 30.0, -60.0  # degrees, as matplotlib's default 3-D view

# The colours of matplotlib's "tab10", as in render_frame.py.
TAB10 = [
    (0.122, 0.467, 0.706), (1.000, 0.498, 0.055), (0.173, 0.627, 0.173), (0.839, 0.153, 0.157),
    (0.580, 0.404, 0.741), (0.549, 0.337, 0.294), (0.890, 0.467, 0.761), (0.498, 0.498, 0.498),
    (0.737, 0.741, 0.133), (0.090, 0.745, 0.812),
]

# Keeps the line cells of the tethers grid whose two points are not in HUBS
# (a placeholder replaced by a list of point rows).
DROP_HUB_TETHERS = """
import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtkIdTypeArray, vtk_to_numpy
from vtkmodules.vtkCommonDataModel import VTK_LINE, vtkCellArray
source = self.GetInput()
result = self.GetOutput()
pairs = vtk_to_numpy(source.GetCells().GetConnectivityArray()).reshape(-1, 2)
kept = pairs[~np.isin(pairs, np.array(HUBS, dtype=np.int64)).any(axis=1)]
cells = vtkCellArray()
cells.SetData(numpy_to_vtkIdTypeArray(np.arange(0, 2 * len(kept) + 1, 2), deep=1),
              numpy_to_vtkIdTypeArray(np.ascontiguousarray(kept.ravel()), deep=1))
result.SetPoints(source.GetPoints())
result.SetCells(VTK_LINE, cells)
"""


class UsageError(Exception):
    """A problem with the user's input: reported in one line, exit code 2."""


class Details:
    """What trajectory.h5 adds to the XDMF: names, radii, large particles."""

    def __init__(self, h5_path):
        self.model = os.path.basename(os.path.dirname(os.path.abspath(h5_path)))
        self.names = None
        self.radii = None
        self.extent = None
        self.dimensions = None
        self.outlines = []  # (species index, centre, radius) of large particles
        self.hub_rows = []  # their particle rows
        self.h5_path = h5_path

    def read(self, time):
        """Fills in the details for the frame nearest `time`; silent on failure."""
        # pvbatch runs the system Python, which imports the package next to
        # this script like any other tool (h5py from python3-h5py).
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))
        try:
            import numpy as np
            from tethersim.plots import outline_species
            from tethersim.run import Run
            with Run(self.h5_path) as run:
                self.model = run.model_name
                self.names = run.species_names
                self.extent = float(np.nanmax(run.box_edges(0)))
                radii = run.species_radii
                self.radii = None if radii is None else [float(r) for r in radii]
                self.dimensions = run.dimensions
                if self.dimensions < 2 or run.frame_count == 0:
                    return
                k = run.frame_index(time=time)
                # As stored (box frame), like the points ParaView reads.
                positions = run.file["particles/all/position/value"][k]
                present = run.frame(k).present & ~np.isnan(positions).any(axis=1)
                species = run.file["particles/all/species"][:]
                for s in sorted(outline_species(self.radii, species, present, self.extent)):
                    for row in np.flatnonzero(present & (species == s)):
                        centre = list(positions[row]) + [0.0] * (3 - positions.shape[1])
                        self.outlines.append((s, centre, self.radii[s]))
                        self.hub_rows.append(int(row))
        except Exception:  # h5py missing or the file unreadable: render without details
            pass


def parse_arguments():
    parser = argparse.ArgumentParser(prog="render_paraview.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("xdmf", metavar="XDMF", help="the trajectory.xdmf of a run")
    parser.add_argument("output", metavar="OUT.png", help="screenshot to write")
    parser.add_argument("--time", type=float, metavar="T", help="show the frame nearest to time T (default: last)")
    parser.add_argument("--all-tethers", action="store_true",
                        help="also draw tethers to particles shown as wireframe spheres")
    return parser.parse_args()


def check_xdmf(path):
    """Reads the sidecar; returns (its text, the path of its HDF5 file)."""
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file")
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            text = stream.read()
    except OSError as error:
        raise UsageError(f"{path}: cannot read ({error.strerror})") from None
    if "<Xdmf" not in text or 'Grid Name="particles"' not in text:
        raise UsageError(f"{path}: not a tethersim XDMF file (no particles grid)")
    if 'GeometryType="X"' in text:
        raise UsageError(f"{path}: 1-D geometry type X, which ParaView's XDMF reader cannot read "
                         "(sidecars of newer tethersim versions use X_Y_Z)")
    if "<Time " not in text:
        raise UsageError(f"{path}: the trajectory has no frames (frame_interval = inf?)")
    match = re.search(r'Format="HDF">([^:<]+):/particles', text)
    if match is None:
        raise UsageError(f"{path}: the particles grid names no HDF5 file")
    h5_path = os.path.join(os.path.dirname(os.path.abspath(path)), match.group(1))
    if not os.path.isfile(h5_path):
        raise UsageError(f"{h5_path}: no such file (named by {path})")
    return text, h5_path


def frame_time(reader, wanted):
    times = list(reader.TimestepValues or [])
    if not times:
        raise UsageError("ParaView found no frames in the XDMF file")
    if wanted is None:
        return times[-1]
    return min(times, key=lambda t: abs(t - wanted))


def colour(index):
    return list(TAB10[index % len(TAB10)])


def species_lookup_table(names):
    """A categorical colour map: species index -> tab10 colour, annotated with names."""
    from paraview.simple import GetColorTransferFunction
    lut = GetColorTransferFunction("species")
    lut.InterpretValuesAsCategories = 1
    annotations, colours = [], []
    for k, label in enumerate(names):
        annotations += [str(k), label]
        colours += colour(k)
    lut.Annotations = annotations
    lut.IndexedColors = colours
    return lut


def radius_array(source, details):
    """Adds a point array "radius" (species radius; large species shrunk) to `source`."""
    from paraview.simple import PythonCalculator
    large = {s for s, _, _ in details.outlines}
    values = [0.0 if s in large else r for s, r in enumerate(details.radii)]
    return PythonCalculator(Input=source, ArrayName="radius", ArrayAssociation="Point Data",
                            Expression=f"numpy.take(numpy.array({values!r}), inputs[0].PointData['species'])")


def show_particles(view, reader, details):
    from paraview.simple import ColorBy, ExtractBlock, GetScalarBar, MergeBlocks, Show, Threshold
    block = MergeBlocks(Input=ExtractBlock(Input=reader, Selectors=["/Root/particles"]), MergePoints=0)
    source = Threshold(Input=block, Scalars=["POINTS", "id"], LowerThreshold=0,
                       UpperThreshold=2.0 ** 62, ThresholdMethod="Between")
    sized = bool(details.radii)
    if sized:
        source = radius_array(source, details)
    display = Show(source, view)
    display.SetRepresentationType("Point Gaussian")
    display.ShaderPreset = "Sphere"
    if sized:
        display.ScaleByArray = 1
        display.SetScaleArray = ["POINTS", "radius"]
        display.UseScaleFunction = 0  # the array values are the radii
        display.GaussianRadius = 1.0
    else:
        display.GaussianRadius = 0.004 * (details.extent or 100.0)
    ColorBy(display, ("POINTS", "species"))
    names = details.names or [str(k) for k in range(int(source.PointData["species"].GetRange()[1]) + 1)]
    display.LookupTable = species_lookup_table(names)
    display.SetScalarBarVisibility(view, True)
    bar = GetScalarBar(display.LookupTable, view)
    bar.Title = "species"
    bar.ComponentTitle = ""
    bar.TitleColor = bar.LabelColor = [0, 0, 0]


def show_outlines(view, details):
    """Large particles (membrane shell, zone) as translucent wireframe spheres."""
    from paraview.simple import Show, Sphere
    for s, centre, radius in details.outlines:
        sphere = Sphere(Center=centre, Radius=radius, ThetaResolution=32, PhiResolution=16)
        display = Show(sphere, view)
        display.SetRepresentationType("Wireframe")
        display.ColorArrayName = [None, ""]
        display.AmbientColor = display.DiffuseColor = colour(s)
        display.Opacity = 0.3


def show_tethers(view, reader, hub_rows):
    from paraview.simple import ExtractBlock, MergeBlocks, ProgrammableFilter, Show
    source = MergeBlocks(Input=ExtractBlock(Input=reader, Selectors=["/Root/tethers"]), MergePoints=0)
    if hub_rows:
        source = ProgrammableFilter(Input=source, OutputDataSetType="vtkUnstructuredGrid",
                                    Script=DROP_HUB_TETHERS.replace("HUBS", repr(hub_rows)))
    display = Show(source, view)
    display.SetRepresentationType("Wireframe")
    display.ColorArrayName = [None, ""]
    display.AmbientColor = display.DiffuseColor = [0.45, 0.45, 0.45]
    display.LineWidth = 1.0
    display.Opacity = 0.5


def add_title(view, text):
    from paraview.simple import Show, Text
    title = Show(Text(Text=text), view)
    title.Color = [0, 0, 0]
    title.FontSize = 14
    title.WindowLocation = "Upper Center"


def place_camera(view, flat):
    """2-D: straight down the z axis; 3-D: matplotlib's default oblique view, z up."""
    camera = view.GetActiveCamera()
    if flat:
        view.InteractionMode = "2D"
        camera.SetPosition(0, 0, 1)
        camera.SetViewUp(0, 1, 0)
    else:
        el, az = math.radians(VIEW_ELEVATION), math.radians(VIEW_AZIMUTH)
        camera.SetPosition(math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el))
        camera.SetViewUp(0, 0, 1)
    camera.SetFocalPoint(0, 0, 0)
    view.ResetCamera()


def render(xdmf, output, wanted_time, all_tethers):
    text, h5_path = check_xdmf(xdmf)
    from paraview.simple import CreateView, Render, SaveScreenshot, XDMFReader
    # The view (the X connection) comes first: see the note on -noreset.
    view = CreateView("RenderView")
    view.ViewSize = IMAGE_SIZE
    view.UseColorPaletteForBackground = 0
    view.Background = [1, 1, 1]
    view.OrientationAxesLabelColor = [0, 0, 0]

    reader = XDMFReader(FileNames=[os.path.abspath(xdmf)])
    reader.UpdatePipelineInformation()
    time = frame_time(reader, wanted_time)
    view.ViewTime = time
    details = Details(h5_path)
    details.read(time)

    show_particles(view, reader, details)
    show_outlines(view, details)
    hidden = ""
    if 'Grid Name="tethers"' in text:
        show_tethers(view, reader, [] if all_tethers else details.hub_rows)
        if details.hub_rows and not all_tethers:
            hidden = "   (tethers to {} hidden)".format(
                ", ".join(sorted({details.names[s] for s, _, _ in details.outlines})))
    add_title(view, f"{details.model}   t = {time:g}{hidden}")
    flat = details.dimensions in (1, 2) or 'GeometryType="XY"' in text
    place_camera(view, flat)
    Render(view)
    SaveScreenshot(output, view, ImageResolution=IMAGE_SIZE, TransparentBackground=0)
    if not os.path.isfile(output):
        raise UsageError(f"{output}: the screenshot was not written")
    print(output)


def main():
    args = parse_arguments()
    try:
        render(args.xdmf, args.output, args.time, args.all_tethers)
    except UsageError as error:
        print(f"render_paraview.py: error: {error}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
