"""robotics_assets: gymnasium-robotics' model files, copied into this package
(assets/<path below gymnasium_robotics/envs/assets>) so that the wheel ships
them with the folder layout their XML names (../stls/fetch, ../textures)."""

def _robotics_assets_impl(ctx):
    outputs = []
    commands = []
    marker = "gymnasium_robotics/envs/assets/"
    for f in ctx.files.srcs:
        relative = f.path[f.path.index(marker) + len(marker):]
        out = ctx.actions.declare_file("assets/" + relative)
        outputs.append(out)
        commands.append("cp '%s' '%s'" % (f.path, out.path))
    ctx.actions.run_shell(
        inputs = ctx.files.srcs,
        outputs = outputs,
        command = " && ".join(commands),
        mnemonic = "RoboticsAssets",
    )
    return [DefaultInfo(files = depset(outputs))]

robotics_assets = rule(
    implementation = _robotics_assets_impl,
    attrs = {"srcs": attr.label_list(allow_files = True)},
)
