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

// The same for a call XLA makes on a CUDA device: the arguments are copied
// to the host, the handler above runs there, and the results are copied
// back, on the call's stream. The CUDA driver is loaded with dlopen on the
// first call. Exported by name (C linkage) for envpool/python/xla.py, which
// registers them for the platform "CUDA" when JAX has a CUDA backend.
extern "C" {
XLA_FFI_Error* envpool_send_cuda(XLA_FFI_CallFrame* call_frame);
XLA_FFI_Error* envpool_recv_cuda(XLA_FFI_CallFrame* call_frame);
}

#endif  // ENVPOOL_CORE_XLA_H_
