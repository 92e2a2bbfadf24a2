// XLA FFI handlers: the pool's send and recv as custom calls for jax.jit.
#ifndef ENVPOOL_CORE_XLA_H_
#define ENVPOOL_CORE_XLA_H_

#include "xla/ffi/api/c_api.h"

namespace envpool {

// envpool_send(handle, env_id int32[n], *actions; pool: int64) -> handle
XLA_FFI_Error* XlaSend(XLA_FFI_CallFrame* call_frame);
// envpool_recv(handle; pool: int64) -> (handle, *columns of the batch)
XLA_FFI_Error* XlaRecv(XLA_FFI_CallFrame* call_frame);

}  // namespace envpool

#endif  // ENVPOOL_CORE_XLA_H_
