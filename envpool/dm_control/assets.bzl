"""suite_assets: the dm_control suite's model files, copied into this package
(assets/<path below dm_control/suite>) so that the wheel ships them."""

def _suite_assets_impl(ctx):
    outputs = []
    commands = []
    marker = "dm_control/suite/"
    for f in ctx.files.srcs:
        relative = f.path[f.path.index(marker) + len(marker):]
        out = ctx.actions.declare_file("assets/" + relative)
        outputs.append(out)
        commands.append("cp '%s' '%s'" % (f.path, out.path))
    ctx.actions.run_shell(
        inputs = ctx.files.srcs,
        outputs = outputs,
        command = " && ".join(commands),
        mnemonic = "DmcAssets",
    )
    return [DefaultInfo(files = depset(outputs))]

suite_assets = rule(
    implementation = _suite_assets_impl,
    attrs = {"srcs": attr.label_list(allow_files = True)},
)
