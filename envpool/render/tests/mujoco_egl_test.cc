#include "envpool/render/mujoco_egl.h"

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace envpool::render {
namespace {

// A heightfield under a light and a camera looking down at it.
constexpr char kTerrainXml[] = R"(
<mujoco>
  <asset>
    <hfield name="terrain" nrow="9" ncol="9" size="1 1 0.5 0.1"/>
  </asset>
  <worldbody>
    <light pos="0.3 0.2 3" dir="0 0 -1" castshadow="true"/>
    <geom type="hfield" hfield="terrain" rgba="0.8 0.6 0.4 1"/>
    <geom type="sphere" size="0.2" pos="0.3 0.3 0.8" rgba="0.2 0.4 0.9 1"/>
    <camera name="down" pos="0.2 -1.2 1.6" xyaxes="1 0 0 0 0.8 0.6"/>
  </worldbody>
</mujoco>
)";

struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

ModelPtr LoadTerrain() {
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  mj_addBufferVFS(&vfs, "terrain.xml", kTerrainXml, std::strlen(kTerrainXml));
  char error[512] = "";
  ModelPtr model(mj_loadXML("terrain.xml", &vfs, error, sizeof(error)));
  mj_deleteVFS(&vfs);
  EXPECT_NE(model, nullptr) << error;
  return model;
}

constexpr int kSize = 48;

class MujocoEglTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = LoadTerrain();
    ASSERT_NE(base_, nullptr);
    // Two envs' terrains: flat, and a ridge across the middle.
    flat_.reset(mj_copyModel(nullptr, base_.get()));
    ridge_.reset(mj_copyModel(nullptr, base_.get()));
    const int n = ridge_->hfield_nrow[0] * ridge_->hfield_ncol[0];
    for (int k = 0; k < n; ++k) {
      flat_->hfield_data[k] = 0.0F;
      ridge_->hfield_data[k] = (k / ridge_->hfield_ncol[0]) % 3 == 1 ? 1 : 0;
    }
    data_.reset(mj_makeData(base_.get()));
    mj_forward(base_.get(), data_.get());
    mjv_defaultCamera(&camera_);
  }

  // Through `owner`'s context (its model stamp fixed: only the terrain
  // changes), or the thread's without one.
  std::vector<uint8_t> Draw(ModelRenderer* owner, const mjModel* model,
                            uint64_t stamp) {
    SceneSettings settings;
    settings.hfield_stamp = stamp;
    std::vector<uint8_t> rgb(kSize * kSize * 3);
    if (owner != nullptr) {
      owner->Render(model, 1, data_.get(), camera_, 0, kSize, kSize, settings,
                    rgb.data());
    } else {
      RenderFrame(base_.get(), model, data_.get(), camera_, 0, kSize, kSize,
                  settings, rgb.data());
    }
    return rgb;
  }

  ModelPtr base_, flat_, ridge_;
  DataPtr data_;
  mjvCamera camera_;
};

// Two envs with terrains of their own, drawn in turn on one thread (as the
// pool steps N envs on fewer threads): each env's context uploads its
// terrain once (ModelRenderer), and its frames are the thread context's
// frames.
TEST_F(MujocoEglTest, OwnContextsUploadEachTerrainOnce) {
  std::vector<uint8_t> flat_thread, ridge_thread;
  try {
    flat_thread = Draw(nullptr, flat_.get(), 1);
  } catch (const std::runtime_error& e) {
    GTEST_SKIP() << e.what();
  }
  ridge_thread = Draw(nullptr, ridge_.get(), 2);
  ASSERT_NE(flat_thread, ridge_thread);  // the terrains show

  ModelRenderer flat_env, ridge_env;
  const uint64_t before = HFieldUploads();
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(Draw(&flat_env, flat_.get(), 1), flat_thread);
    EXPECT_EQ(Draw(&ridge_env, ridge_.get(), 2), ridge_thread);
  }
  EXPECT_EQ(HFieldUploads() - before, 2U);

  // The thread's one context uploads at every change of terrain.
  const uint64_t shared_before = HFieldUploads();
  for (int round = 0; round < 3; ++round) {
    Draw(nullptr, flat_.get(), 1);
    Draw(nullptr, ridge_.get(), 2);
  }
  EXPECT_EQ(HFieldUploads() - shared_before, 6U);

  // A new terrain of the env (a new episode) is uploaded again.
  EXPECT_EQ(Draw(&flat_env, ridge_.get(), 3), ridge_thread);
  EXPECT_EQ(HFieldUploads() - shared_before, 7U);
}

// An env's own context moves between threads: drawn on another thread, then
// on this one again, it gives the same frame.
TEST_F(MujocoEglTest, OwnContextDrawsOnAnyThread) {
  ModelRenderer env;
  std::vector<uint8_t> here;
  try {
    here = Draw(&env, ridge_.get(), 5);
  } catch (const std::runtime_error& e) {
    GTEST_SKIP() << e.what();
  }
  std::vector<uint8_t> there;
  std::thread other([&] { there = Draw(&env, ridge_.get(), 5); });
  other.join();
  EXPECT_EQ(there, here);
  EXPECT_EQ(Draw(&env, ridge_.get(), 5), here);
}

}  // namespace
}  // namespace envpool::render
