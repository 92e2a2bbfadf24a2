"""The envpool-assets wheel's CMU mocap clip, as a repository (WORKSPACE calls
envpool_assets_mocap() once)."""

load("//third_party/pypi:pypi.bzl", "pypi_archive")

def envpool_assets_mocap():
    """@envpool_assets_mocap: soccer's humanoid start poses.

    The CMU mocap clip that soccer's humanoid walkers start from
    (CMUMocapInitializer's CMU_077_02, which dm_control downloads at run time
    with its whole 488 MB file), from the envpool-assets data wheel
    (Apache-2.0): only the 771 KB clip and the licence are extracted.
    """
    pypi_archive(
        name = "envpool_assets_mocap",
        build_file = "//third_party/envpool_assets_mocap:envpool_assets_mocap.BUILD",
        files = [
            "envpool_assets/mujoco/locomotion/assets_dm_control/mocap_2019.bin",
            "envpool_assets-0.4.1.dist-info/licenses/LICENSE",
        ],
        kind = "wheel",
        package = "envpool-assets",
        python_version = "3.11",
        sha256 = "3c3f2f85865854b6ccbcd9765c277d883a440193a40785aa7f7c4ed96b58fcea",
        strip_prefix = "envpool_assets/mujoco/locomotion/assets_dm_control",
        version = "0.4.1",
    )
