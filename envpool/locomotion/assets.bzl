"""locomotion_assets: dm_control's locomotion asset files, copied into this
package (assets/<path below dm_control/locomotion>) so that the wheel ships
them."""

def _locomotion_assets_impl(ctx):
    outputs = []
    commands = []
    marker = "dm_control/locomotion/"
    for f in ctx.files.srcs:
        relative = f.path[f.path.index(marker) + len(marker):]

        # soccer/assets/pitch/x.png -> soccer/pitch/x.png
        relative = relative.replace("/assets/", "/", 1)
        out = ctx.actions.declare_file("assets/" + relative)
        outputs.append(out)
        commands.append("cp '%s' '%s'" % (f.path, out.path))
    ctx.actions.run_shell(
        inputs = ctx.files.srcs,
        outputs = outputs,
        command = " && ".join(commands),
        mnemonic = "LocomotionAssets",
    )
    return [DefaultInfo(files = depset(outputs))]

locomotion_assets = rule(
    implementation = _locomotion_assets_impl,
    attrs = {"srcs": attr.label_list(allow_files = True)},
)
