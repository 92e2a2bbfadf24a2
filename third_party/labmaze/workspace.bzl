"""labmaze's pinned sdist, the source of its C++ maze generator."""

load("//third_party/pypi:pypi.bzl", "pypi_archive")

def labmaze_repository():
    """The `@labmaze` repository: labmaze 1.0.6's sdist (labmaze.BUILD).

    Only the generator's sources and the textures the mazes use (style_01's
    walls and floors, sky_03's skybox) are extracted: the sdist's own Bazel
    files (labmaze/cc/BUILD) would make their folders packages of their own.

    dm_control's RandomMazeWithTargets makes its mazes with this version's
    generator (the reference in the locomotion family's maze tests).
    """
    pypi_archive(
        name = "labmaze",
        build_file = "//third_party/labmaze:labmaze.BUILD",
        files = [
            "labmaze-1.0.6/LICENSE",
            "labmaze-1.0.6/labmaze/cc/algorithm.cc",
            "labmaze-1.0.6/labmaze/cc/algorithm.h",
            "labmaze-1.0.6/labmaze/cc/char_grid.cc",
            "labmaze-1.0.6/labmaze/cc/char_grid.h",
            "labmaze-1.0.6/labmaze/cc/defaults.h",
            "labmaze-1.0.6/labmaze/cc/flood_fill.cc",
            "labmaze-1.0.6/labmaze/cc/flood_fill.h",
            "labmaze-1.0.6/labmaze/cc/logging.h",
            "labmaze-1.0.6/labmaze/cc/random_maze.cc",
            "labmaze-1.0.6/labmaze/cc/random_maze.h",
            "labmaze-1.0.6/labmaze/cc/text_maze.cc",
            "labmaze-1.0.6/labmaze/cc/text_maze.h",
            "labmaze-1.0.6/labmaze/assets/sky_03/bk.png",
            "labmaze-1.0.6/labmaze/assets/sky_03/dn.png",
            "labmaze-1.0.6/labmaze/assets/sky_03/ft.png",
            "labmaze-1.0.6/labmaze/assets/sky_03/lf.png",
            "labmaze-1.0.6/labmaze/assets/sky_03/rt.png",
            "labmaze-1.0.6/labmaze/assets/sky_03/up.png",
            "labmaze-1.0.6/labmaze/assets/style_01/floor_blue_bright_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/floor_blue_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/floor_blue_team_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/floor_orange_bright_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/floor_orange_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/floor_red_team_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/wall_blue_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/wall_cerise_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/wall_green_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/wall_green_bright_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/wall_purple_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/wall_red_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/wall_red_bright_d.png",
            "labmaze-1.0.6/labmaze/assets/style_01/wall_yellow_d.png",
        ],
        kind = "sdist",
        package = "labmaze",
        sha256 = "2e8de7094042a77d6972f1965cf5c9e8f971f1b34d225752f343190a825ebe73",
        strip_prefix = "labmaze-1.0.6",
        version = "1.0.6",
    )
