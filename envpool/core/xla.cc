// The pool is addressed through an int64 attribute holding its address; the
// `handle` array carries no data, it only orders the calls inside a jitted
// program (each call consumes the previous handle and returns a new one).
// Results are copied from the pool's batch into XLA's buffers, converting
// 64-bit columns when JAX runs without x64.
#include "envpool/core/xla.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "envpool/core/action_check.h"
#include "envpool/core/pool.h"
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace envpool {
namespace {

template <typename T>
bool ReadAs(ffi::DataType type, const void* data, std::size_t i, T* out) {
  switch (type) {
    case ffi::DataType::PRED:
      *out = static_cast<T>(static_cast<const bool*>(data)[i]);
      return true;
    case ffi::DataType::S8:
      *out = static_cast<T>(static_cast<const int8_t*>(data)[i]);
      return true;
    case ffi::DataType::U8:
      *out = static_cast<T>(static_cast<const uint8_t*>(data)[i]);
      return true;
    case ffi::DataType::S32:
      *out = static_cast<T>(static_cast<const int32_t*>(data)[i]);
      return true;
    case ffi::DataType::S64:
      *out = static_cast<T>(static_cast<const int64_t*>(data)[i]);
      return true;
    case ffi::DataType::F32:
      *out = static_cast<T>(static_cast<const float*>(data)[i]);
      return true;
    case ffi::DataType::F64:
      *out = static_cast<T>(static_cast<const double*>(data)[i]);
      return true;
    default:
      return false;
  }
}

template <typename T>
bool WriteAs(ffi::DataType type, void* data, std::size_t i, T value) {
  switch (type) {
    case ffi::DataType::PRED:
      static_cast<bool*>(data)[i] = value != T{0};
      return true;
    case ffi::DataType::S8:
      static_cast<int8_t*>(data)[i] = static_cast<int8_t>(value);
      return true;
    case ffi::DataType::U8:
      static_cast<uint8_t*>(data)[i] = static_cast<uint8_t>(value);
      return true;
    case ffi::DataType::S32:
      static_cast<int32_t*>(data)[i] = static_cast<int32_t>(value);
      return true;
    case ffi::DataType::S64:
      static_cast<int64_t*>(data)[i] = static_cast<int64_t>(value);
      return true;
    case ffi::DataType::F32:
      static_cast<float*>(data)[i] = static_cast<float>(value);
      return true;
    case ffi::DataType::F64:
      static_cast<double*>(data)[i] = static_cast<double>(value);
      return true;
    default:
      return false;
  }
}

ffi::DataType ToFfi(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return ffi::DataType::PRED;
    case DType::kUInt8:
      return ffi::DataType::U8;
    case DType::kInt8:
      return ffi::DataType::S8;
    case DType::kInt32:
      return ffi::DataType::S32;
    case DType::kInt64:
      return ffi::DataType::S64;
    case DType::kFloat32:
      return ffi::DataType::F32;
    case DType::kFloat64:
      return ffi::DataType::F64;
  }
  return ffi::DataType::INVALID;
}

// Copies `count` elements of `dtype` from `src` into `dst`, converting.
bool CopyElements(DType dtype, const void* src, ffi::DataType dst_type,
                  void* dst, std::size_t count) {
  ffi::DataType src_type = ToFfi(dtype);
  if (src_type == dst_type) {
    std::memcpy(dst, src, count * DTypeSize(dtype));
    return true;
  }
  bool floating = dtype == DType::kFloat32 || dtype == DType::kFloat64;
  for (std::size_t i = 0; i < count; ++i) {
    bool ok;
    if (floating) {
      double v = 0;
      ok = ReadAs(src_type, src, i, &v) && WriteAs(dst_type, dst, i, v);
    } else {
      int64_t v = 0;
      ok = ReadAs(src_type, src, i, &v) && WriteAs(dst_type, dst, i, v);
    }
    if (!ok) {
      return false;
    }
  }
  return true;
}

void CopyHandle(ffi::AnyBuffer in, ffi::Result<ffi::AnyBuffer> out) {
  std::memcpy(out->untyped_data(), in.untyped_data(),
              std::min(in.size_bytes(), out->size_bytes()));
}

// An action buffer's element type as the shared action check names it;
// kind '?' for the types it does not read (bfloat16, complex, ...).
ElementType ElementTypeOf(ffi::DataType type) {
  switch (type) {
    case ffi::DataType::PRED:
      return {'b', 1};
    case ffi::DataType::S8:
      return {'i', 1};
    case ffi::DataType::S16:
      return {'i', 2};
    case ffi::DataType::S32:
      return {'i', 4};
    case ffi::DataType::S64:
      return {'i', 8};
    case ffi::DataType::U8:
      return {'u', 1};
    case ffi::DataType::U16:
      return {'u', 2};
    case ffi::DataType::U32:
      return {'u', 4};
    case ffi::DataType::U64:
      return {'u', 8};
    case ffi::DataType::F16:
      return {'f', 2};
    case ffi::DataType::F32:
      return {'f', 4};
    case ffi::DataType::F64:
      return {'f', 8};
    default:
      return {'?', 0};
  }
}

// The actions are checked and written by the routine the Python binding
// uses (action_check.h), so a bad action gets the same message here, inside
// an XlaRuntimeError, as there, in a ValueError.
ffi::Error SendImpl(ffi::AnyBuffer handle, ffi::Buffer<ffi::S32> env_id,
                    ffi::RemainingArgs actions, int64_t pool_address,
                    ffi::Result<ffi::AnyBuffer> handle_out) {
  try {
    Pool* pool = reinterpret_cast<Pool*>(pool_address);
    if (pool->forked_away()) {
      return ffi::Error::Internal(Pool::ForkedAwayMessage());
    }
    const int n = static_cast<int>(env_id.element_count());
    const int* ids = env_id.typed_data();
    pool->CheckSendable(ids, n, false);
    const auto& fields = pool->spec().action.specs();
    if (actions.size() != fields.size()) {
      return ffi::Error::InvalidArgument(
          pool->config().task_id + " takes " + std::to_string(fields.size()) +
          " action arrays, got " + std::to_string(actions.size()));
    }
    for (std::size_t f = 0; f < fields.size(); ++f) {
      auto buffer = actions.get<ffi::AnyBuffer>(f);
      if (!buffer.has_value()) {
        return buffer.error();
      }
      ActionValues values;
      values.type = ElementTypeOf(buffer->element_type());
      if (!IsReadable(values.type)) {
        return ffi::Error::InvalidArgument(
            "action '" + fields[f].name + "' of " + pool->config().task_id +
            " has an element type that cannot be cast safely to " +
            DTypeName(fields[f].dtype) +
            ": send bool, integer or float16/32/64 values");
      }
      values.data = buffer->untyped_data();
      const auto dims = buffer->dimensions();
      values.shape.assign(dims.begin(), dims.end());
      // Rows written for a send that fails on a later field are not
      // stepped: the next send writes them again.
      CheckAndWriteAction(pool, static_cast<int>(f), ids, n, values);
    }
    pool->Send(ids, n, false, nullptr);
    CopyHandle(handle, handle_out);
    return ffi::Error::Success();
  } catch (const std::exception& e) {
    return ffi::Error::InvalidArgument(e.what());
  }
}

ffi::Error RecvImpl(ffi::AnyBuffer handle, int64_t pool_address,
                    ffi::RemainingRets outputs) {
  try {
    Pool* pool = reinterpret_cast<Pool*>(pool_address);
    if (pool->forked_away()) {
      return ffi::Error::Internal(Pool::ForkedAwayMessage());
    }
    std::shared_ptr<Block> block = pool->Recv();
    const BlockLayout& layout = pool->layout();
    auto handle_out = outputs.get<ffi::AnyBuffer>(0);
    if (!handle_out.has_value()) {
      pool->Release(block->id());
      return handle_out.error();
    }
    CopyHandle(handle, *handle_out);
    // Outputs after the handle: state columns, then reward, terminated,
    // truncated, env_id, elapsed_step, and for multi-player envs
    // players.env_id. A per-player output has batch_size * max_num_players
    // rows (XLA's shapes are static): the rows of the players the batch
    // has, then padding, zeros with players.env_id -1.
    std::vector<int> columns;
    for (int c = 0; c < layout.num_state; ++c) {
      columns.push_back(c);
    }
    for (int c : {layout.reward, layout.terminated, layout.truncated,
                  layout.env_id, layout.elapsed_step}) {
      columns.push_back(c);
    }
    if (layout.players_env_id >= 0) {
      columns.push_back(layout.players_env_id);
      columns.push_back(layout.players_id);
    }
    if (outputs.size() != columns.size() + 1) {
      pool->Release(block->id());
      return ffi::Error::InvalidArgument("unexpected number of outputs");
    }
    for (std::size_t k = 0; k < columns.size(); ++k) {
      const ArraySpec& spec = layout.columns[columns[k]];
      auto out = outputs.get<ffi::AnyBuffer>(k + 1);
      const auto per_row = static_cast<std::size_t>(spec.NumElements());
      const int rows = spec.per_player ? block->player_rows() : block->target();
      const int padded_rows = spec.per_player
                                  ? block->target() * layout.rows_per_env
                                  : block->target();
      const std::size_t count = per_row * rows;
      if (!out.has_value() ||
          (*out)->element_count() != per_row * padded_rows ||
          !CopyElements(spec.dtype, block->Column(columns[k]),
                        (*out)->element_type(), (*out)->untyped_data(),
                        count)) {
        pool->Release(block->id());
        return ffi::Error::InvalidArgument("output '" + spec.name +
                                           "' has the wrong size or dtype");
      }
      if (rows < padded_rows) {
        auto* padding = static_cast<uint8_t*>((*out)->untyped_data()) +
                        count * ffi::ByteWidth((*out)->element_type());
        const std::size_t padding_count = per_row * (padded_rows - rows);
        std::memset(padding, 0,
                    padding_count * ffi::ByteWidth((*out)->element_type()));
        if (columns[k] == layout.players_env_id ||
            columns[k] == layout.players_id) {
          for (std::size_t i = 0; i < padding_count; ++i) {
            WriteAs<int64_t>((*out)->element_type(), padding, i, -1);
          }
        }
      }
    }
    pool->Release(block->id());
    return ffi::Error::Success();
  } catch (const std::exception& e) {
    return ffi::Error::Internal(e.what());
  }
}

}  // namespace

XLA_FFI_DEFINE_HANDLER(kSendHandler, SendImpl,
                       ffi::Ffi::Bind()
                           .Arg<ffi::AnyBuffer>()
                           .Arg<ffi::Buffer<ffi::S32>>()
                           .RemainingArgs()
                           .Attr<int64_t>("pool")
                           .Ret<ffi::AnyBuffer>());

XLA_FFI_DEFINE_HANDLER(kRecvHandler, RecvImpl,
                       ffi::Ffi::Bind()
                           .Arg<ffi::AnyBuffer>()
                           .Attr<int64_t>("pool")
                           .RemainingRets());

XLA_FFI_Error* XlaSend(XLA_FFI_CallFrame* call_frame) {
  return kSendHandler(call_frame);
}

XLA_FFI_Error* XlaRecv(XLA_FFI_CallFrame* call_frame) {
  return kRecvHandler(call_frame);
}

namespace {

// The few functions of the CUDA driver API that staging needs, found with
// dlopen/dlsym on first use: the build needs no CUDA header or library, and
// a machine without a GPU never loads one. The driver's libcuda.so.1 is on
// the loader's path wherever a GPU driver is installed, where the runtime's
// libcudart may lie in a pip package's folder.
struct CudaDriver {
  using Result = int;  // CUresult; 0 is CUDA_SUCCESS
  Result (*memcpy_dtoh)(void* dst, std::uint64_t src, std::size_t bytes,
                        void* stream) = nullptr;
  Result (*memcpy_htod)(std::uint64_t dst, const void* src, std::size_t bytes,
                        void* stream) = nullptr;
  Result (*stream_synchronize)(void* stream) = nullptr;
  Result (*stream_get_ctx)(void* stream, void** context) = nullptr;
  Result (*ctx_push)(void* context) = nullptr;
  Result (*ctx_pop)(void** context) = nullptr;
  Result (*error_string)(Result error, const char** text) = nullptr;
  std::string error;  // why the driver could not be loaded; "" once loaded

  static const CudaDriver& Get() {
    static const CudaDriver driver = Load();
    return driver;
  }

  static CudaDriver Load() {
    CudaDriver driver;
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      driver.error = std::string(
                         "envpool's CUDA custom call could not load "
                         "the CUDA driver (libcuda.so.1): ") +
                     dlerror();
      return driver;
    }
    bool found = true;
    auto find = [&](auto* function, const char* name) {
      *function = reinterpret_cast<std::remove_pointer_t<decltype(function)>>(
          dlsym(library, name));
      if (*function == nullptr && found) {
        found = false;
        driver.error = std::string("libcuda.so.1 has no ") + name +
                       ": a CUDA driver of version 11 or newer is needed";
      }
    };
    find(&driver.memcpy_dtoh, "cuMemcpyDtoHAsync_v2");
    find(&driver.memcpy_htod, "cuMemcpyHtoDAsync_v2");
    find(&driver.stream_synchronize, "cuStreamSynchronize");
    find(&driver.stream_get_ctx, "cuStreamGetCtx");
    find(&driver.ctx_push, "cuCtxPushCurrent_v2");
    find(&driver.ctx_pop, "cuCtxPopCurrent_v2");
    find(&driver.error_string, "cuGetErrorString");
    return driver;  // the library stays loaded for the process's life
  }

  // "" for success, else what failed and the driver's words for it.
  std::string Check(Result result, const char* what) const {
    if (result == 0) {
      return "";
    }
    const char* text = nullptr;
    if (error_string == nullptr || error_string(result, &text) != 0 ||
        text == nullptr) {
      text = "unknown error";
    }
    return std::string("envpool's CUDA custom call: ") + what + " failed (" +
           text + ", CUresult " + std::to_string(result) + ")";
  }
};

XLA_FFI_Error* MakeError(const XLA_FFI_Api* api, XLA_FFI_Error_Code code,
                         const std::string& message) {
  XLA_FFI_Error_Create_Args args;
  args.struct_size = XLA_FFI_Error_Create_Args_STRUCT_SIZE;
  args.extension_start = nullptr;
  args.message = message.c_str();
  args.errc = code;
  return api->XLA_FFI_Error_Create(&args);
}

std::size_t ByteCount(const XLA_FFI_Buffer& buffer) {
  std::size_t count = 1;
  for (int64_t d = 0; d < buffer.rank; ++d) {
    count *= static_cast<std::size_t>(buffer.dims[d]);
  }
  return count * ffi::ByteWidth(static_cast<ffi::DataType>(buffer.dtype));
}

// One side (arguments or results) of a call, copied to the host: the
// buffers' descriptions point at host memory, the rest as XLA gave them.
struct HostSide {
  std::vector<XLA_FFI_Buffer> buffers;
  std::vector<void*> pointers;
  std::vector<std::vector<std::uint8_t>> bytes;

  explicit HostSide(int64_t size)
      : buffers(size), pointers(size), bytes(size) {}
};

// Runs `cpu_handler` for a call that XLA makes on a CUDA device: the
// arguments are copied device-to-host on the call's stream (after the work
// before it on that stream), the handler runs as it does on the CPU, and
// the results are copied back host-to-device on the same stream before
// this returns (the host copies are freed then).
XLA_FFI_Error* StageThroughHost(
    XLA_FFI_CallFrame* frame,
    XLA_FFI_Error* (*cpu_handler)(XLA_FFI_CallFrame*)) {
  // Queries of the handler's metadata and stages other than execution carry
  // no buffers: the CPU handler answers them.
  const bool metadata =
      frame->extension_start != nullptr &&
      frame->extension_start->type == XLA_FFI_Extension_Metadata;
  if (metadata || frame->stage != XLA_FFI_ExecutionStage_EXECUTE) {
    return cpu_handler(frame);
  }
  const XLA_FFI_Api* api = frame->api;
  const CudaDriver& cuda = CudaDriver::Get();
  if (!cuda.error.empty()) {
    return MakeError(api, XLA_FFI_Error_Code_FAILED_PRECONDITION, cuda.error);
  }
  XLA_FFI_Stream_Get_Args stream_args;
  stream_args.struct_size = XLA_FFI_Stream_Get_Args_STRUCT_SIZE;
  stream_args.extension_start = nullptr;
  stream_args.ctx = frame->ctx;
  stream_args.stream = nullptr;
  if (XLA_FFI_Error* error = api->XLA_FFI_Stream_Get(&stream_args)) {
    return error;
  }
  void* stream = stream_args.stream;
  // The driver's calls act on the current context: the stream's.
  void* context = nullptr;
  std::string failed =
      cuda.Check(cuda.stream_get_ctx(stream, &context), "cuStreamGetCtx");
  if (failed.empty()) {
    failed = cuda.Check(cuda.ctx_push(context), "cuCtxPushCurrent");
  }
  if (!failed.empty()) {
    return MakeError(api, XLA_FFI_Error_Code_INTERNAL, failed);
  }
  struct PopContext {
    const CudaDriver& cuda;
    ~PopContext() {
      void* popped = nullptr;
      cuda.ctx_pop(&popped);
    }
  } pop_context{cuda};

  HostSide args(frame->args.size);
  for (int64_t i = 0; i < frame->args.size && failed.empty(); ++i) {
    if (frame->args.types[i] != XLA_FFI_ArgType_BUFFER) {
      return MakeError(api, XLA_FFI_Error_Code_UNIMPLEMENTED,
                       "envpool's CUDA custom call takes buffers only");
    }
    const auto* device =
        static_cast<const XLA_FFI_Buffer*>(frame->args.args[i]);
    args.buffers[i] = *device;
    args.bytes[i].resize(ByteCount(*device));
    args.buffers[i].data = args.bytes[i].data();
    args.pointers[i] = &args.buffers[i];
    if (!args.bytes[i].empty()) {
      failed = cuda.Check(
          cuda.memcpy_dtoh(args.bytes[i].data(),
                           reinterpret_cast<std::uintptr_t>(device->data),
                           args.bytes[i].size(), stream),
          "copying an argument to the host");
    }
  }
  HostSide rets(frame->rets.size);
  for (int64_t i = 0; i < frame->rets.size; ++i) {
    if (frame->rets.types[i] != XLA_FFI_RetType_BUFFER) {
      return MakeError(api, XLA_FFI_Error_Code_UNIMPLEMENTED,
                       "envpool's CUDA custom call returns buffers only");
    }
    const auto* device =
        static_cast<const XLA_FFI_Buffer*>(frame->rets.rets[i]);
    rets.buffers[i] = *device;
    rets.bytes[i].resize(ByteCount(*device));
    rets.buffers[i].data = rets.bytes[i].data();
    rets.pointers[i] = &rets.buffers[i];
  }
  if (failed.empty()) {
    failed = cuda.Check(cuda.stream_synchronize(stream), "cuStreamSynchronize");
  }
  if (!failed.empty()) {
    return MakeError(api, XLA_FFI_Error_Code_INTERNAL, failed);
  }
  XLA_FFI_CallFrame host_frame = *frame;
  host_frame.args.args = args.pointers.data();
  host_frame.rets.rets = rets.pointers.data();
  if (XLA_FFI_Error* error = cpu_handler(&host_frame)) {
    return error;
  }
  for (int64_t i = 0; i < frame->rets.size && failed.empty(); ++i) {
    const auto* device =
        static_cast<const XLA_FFI_Buffer*>(frame->rets.rets[i]);
    if (!rets.bytes[i].empty()) {
      failed = cuda.Check(
          cuda.memcpy_htod(reinterpret_cast<std::uintptr_t>(device->data),
                           rets.bytes[i].data(), rets.bytes[i].size(), stream),
          "copying a result to the device");
    }
  }
  // Wait for the copies even after a failed one: the host copies go next.
  const std::string synced =
      cuda.Check(cuda.stream_synchronize(stream), "cuStreamSynchronize");
  if (failed.empty()) {
    failed = synced;
  }
  if (!failed.empty()) {
    return MakeError(api, XLA_FFI_Error_Code_INTERNAL, failed);
  }
  return nullptr;
}

}  // namespace
}  // namespace envpool

XLA_FFI_Error* envpool_send_cuda(XLA_FFI_CallFrame* call_frame) {
  return envpool::StageThroughHost(call_frame, &envpool::XlaSend);
}

XLA_FFI_Error* envpool_recv_cuda(XLA_FFI_CallFrame* call_frame) {
  return envpool::StageThroughHost(call_frame, &envpool::XlaRecv);
}
