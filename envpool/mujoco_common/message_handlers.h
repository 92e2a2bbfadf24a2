// MuJoCo's message handlers, which every MuJoCo-based family installs when
// its module is imported: they all load the same libmujoco, whose handlers
// are process-wide.
#ifndef ENVPOOL_MUJOCO_COMMON_MESSAGE_HANDLERS_H_
#define ENVPOOL_MUJOCO_COMMON_MESSAGE_HANDLERS_H_

#include <string>

namespace envpool::mujoco_common {

// Unless another user of libmujoco installed its own: MuJoCo errors become
// C++ exceptions (the default handler ends the process) and warnings go to
// stderr (the default one also appends to MUJOCO_LOG.TXT in the working
// directory), but for the ones IsQuietWarning names.
void InstallMessageHandlers();

// Whether the warning `message` is dropped: the deprecation of the compiler
// attribute settotalmass. The reference's own models (gymnasium's
// half_cheetah.xml, dm_control's cheetah.xml) set it, MuJoCo still applies
// it (their bodies weigh 14 in total, as the attribute asks), and the user
// has nothing to change; shown, it would be printed for every process that
// makes HalfCheetah or Cheetah.
bool IsQuietWarning(const std::string& message);

}  // namespace envpool::mujoco_common

#endif  // ENVPOOL_MUJOCO_COMMON_MESSAGE_HANDLERS_H_
