// What the MuJoCo-based families share, on small models this test writes
// into its own folder: loading and caching, the families' missing-file
// errors, models built from text, envs' views of a shared model, name
// lookups, numpy's reductions and
// MuJoCo's message handlers.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/numpy_blas.h"
#include "envpool/mujoco_common/message_handlers.h"
#include "envpool/mujoco_common/model.h"
#include "envpool/mujoco_common/model_view.h"
#include "envpool/mujoco_common/numpy_math.h"
#include "envpool/mujoco_common/spec.h"

namespace envpool::mujoco_common {
namespace {

// A pole on a hinge, one limited motor and one unlimited; its default
// class comes from an included file, as dm_control's models include
// ./common/*.xml.
constexpr char kPoleModel[] = R"(<mujoco>
  <include file="pole_defaults.xml"/>
  <option timestep="0.01"/>
  <worldbody>
    <body name="pole" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 0.5" size="0.05" mass="1"/>
    </body>
  </worldbody>
  <actuator>
    <motor joint="hinge" ctrlrange="-1 2" ctrllimited="true"/>
    <motor joint="hinge" ctrllimited="false"/>
  </actuator>
</mujoco>)";

constexpr char kPoleDefaults[] = R"(<mujoco>
  <default><joint damping="0.1"/></default>
</mujoco>)";

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir == nullptr ? "/tmp" : dir;
}

// A folder of `family` holding pole.xml and what it includes.
std::string WriteModels(const std::string& family) {
  const std::string dir = TempDir() + "/" + family;
  mkdir(dir.c_str(), 0755);  // may exist
  std::ofstream(dir + "/pole.xml") << kPoleModel;
  std::ofstream(dir + "/pole_defaults.xml") << kPoleDefaults;
  envpool::SetFamilyAssetDir(family, dir);
  return dir;
}

// A family's not_found, showing what it is given.
ModelFolder Folder(const std::string& family, bool accepts_paths) {
  ModelFolder folder;
  folder.family = family;
  folder.accepts_paths = accepts_paths;
  folder.not_found = [](const std::string& name, const std::string& path) {
    return "no " + name + " at [" + path + "]";
  };
  return folder;
}

TEST(ModelTest, ANameIsAFileOfTheFamilysFolderCompiledOnce) {
  const std::string dir = WriteModels("folder_a");
  const ModelFolder folder = Folder("folder_a", false);
  EXPECT_EQ(ResolveModelPath(folder, "pole.xml"), dir + "/pole.xml");
  const SharedModel model = LoadModel(folder, "pole.xml");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->nu, 2);
  EXPECT_EQ(model->dof_damping[0], 0.1);  // from the included file
  EXPECT_EQ(LoadModel(folder, "pole.xml").get(), model.get());
  // The same file named by its path is the same model.
  EXPECT_EQ(LoadModel(Folder("folder_a", true), dir + "/pole.xml").get(),
            model.get());
}

TEST(ModelTest, EnvsMadeAtOnceShareOneCompile) {
  WriteModels("folder_j");
  const ModelFolder folder = Folder("folder_j", false);
  std::vector<const mjModel*> models(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < models.size(); ++i) {
    threads.emplace_back([&folder, &models, i] {
      models[i] = LoadModel(folder, "pole.xml").get();
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  for (const mjModel* model : models) {
    EXPECT_EQ(model, models[0]);
  }
}

TEST(ModelTest, AMissingFileIsTheFamilysError) {
  const std::string dir = WriteModels("folder_b");
  try {
    LoadModel(Folder("folder_b", false), "cheetah.xml");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "no cheetah.xml at [" + dir + "/cheetah.xml]");
  }
  EXPECT_THROW(ReadModelText(Folder("folder_b", false), "cheetah.xml"),
               std::invalid_argument);
  // A family whose package is missing has no folder to look in.
  envpool::SetFamilyAssetDir("folder_c", "");
  try {
    LoadModel(Folder("folder_c", false), "pole.xml");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "no pole.xml at []");
  }
  try {
    LoadModel(Folder("folder_c", true), "/nowhere/pole.xml");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "no /nowhere/pole.xml at [/nowhere/pole.xml]");
  }
}

TEST(ModelTest, PathsAreTakenOnlyWhereTheFamilyAcceptsThem) {
  const std::string dir = WriteModels("folder_d");
  const std::string home = dir + "/home";
  mkdir(home.c_str(), 0755);
  std::ofstream(home + "/pole_defaults.xml") << kPoleDefaults;
  std::ofstream(home + "/mine.xml") << kPoleModel;
  setenv("HOME", home.c_str(), 1);
  EXPECT_EQ(ResolveModelPath(Folder("folder_d", true), "~/mine.xml"),
            home + "/mine.xml");
  EXPECT_EQ(LoadModel(Folder("folder_d", true), "~/mine.xml")->nu, 2);
  // Elsewhere the same names are files of the folder.
  EXPECT_THROW(ResolveModelPath(Folder("folder_d", false), "~/mine.xml"),
               std::invalid_argument);
  EXPECT_THROW(ResolveModelPath(Folder("folder_d", false), home + "/mine.xml"),
               std::invalid_argument);
}

TEST(ModelTest, AFileMuJoCoCannotCompileIsAnErrorNamingIt) {
  const std::string dir = WriteModels("folder_e");
  std::ofstream(dir + "/broken.xml")
      << "<mujoco><worldbody><geom type=\"boxx\"";
  try {
    LoadModel(Folder("folder_e", false), "broken.xml");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    const std::string prefix =
        "cannot load MuJoCo model " + dir + "/broken.xml: ";
    EXPECT_EQ(std::string(e.what()).substr(0, prefix.size()), prefix);
    EXPECT_GT(std::string(e.what()).size(), prefix.size());
  }
}

TEST(ModelTest, ATextIsCompiledBesideTheFolderOncePerKey) {
  WriteModels("folder_f");
  const ModelFolder folder = Folder("folder_f", false);
  std::string xml = ReadModelText(folder, "pole.xml");
  EXPECT_EQ(xml, kPoleModel);
  const std::string from = "timestep=\"0.01\"";
  xml.replace(xml.find(from), from.size(), "timestep=\"0.02\"");
  const SharedModel model = LoadModelFromText(folder, "pole_slow", xml);
  EXPECT_EQ(model->opt.timestep, 0.02);
  EXPECT_EQ(model->dof_damping[0], 0.1);  // the include found beside it
  // A key names one text: asked again, the compiled one is returned.
  EXPECT_EQ(LoadModelFromText(folder, "pole_slow", "").get(), model.get());
  EXPECT_NE(LoadModel(folder, "pole.xml").get(), model.get());
  // Another family's key of the same name is its own model.
  WriteModels("folder_k");
  EXPECT_EQ(
      LoadModelFromText(Folder("folder_k", false), "pole_slow", kPoleModel)
          ->opt.timestep,
      0.01);
  try {
    LoadModelFromText(folder, "pole_broken", "<mujoco><nonsense/></mujoco>");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot build MuJoCo model "
                                          "pole_broken: ",
                                          0),
              0U)
        << e.what();
  }
}

TEST(ModelTest, NamesAreLookedUpByTypeAndAMissingOneIsNamed) {
  WriteModels("folder_g");
  const SharedModel model = LoadModel(Folder("folder_g", false), "pole.xml");
  EXPECT_EQ(ObjectId(model.get(), mjOBJ_BODY, "pole"), 1);
  EXPECT_EQ(ObjectId(model.get(), mjOBJ_JOINT, "hinge"), 0);
  try {
    ObjectId(model.get(), mjOBJ_BODY, "torso");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "the MuJoCo model has no body 'torso'");
  }
  EXPECT_THROW(ObjectId(model.get(), mjOBJ_SENSOR, "pole"),
               std::invalid_argument);
}

TEST(ModelTest, ControlBoundsAreTheRangeOrTheUnlimitedBound) {
  WriteModels("folder_h");
  const SharedModel model = LoadModel(Folder("folder_h", false), "pole.xml");
  std::vector<double> low;
  std::vector<double> high;
  ControlBounds(*model, mjMAXVAL, &low, &high);
  EXPECT_EQ(low, (std::vector<double>{-1.0, -mjMAXVAL}));
  EXPECT_EQ(high, (std::vector<double>{2.0, mjMAXVAL}));
}

TEST(ModelViewTest, AViewWritesItsOwnArraysAndSharesTheRest) {
  WriteModels("folder_v");
  const SharedModel shared = LoadModel(Folder("folder_v", false), "pole.xml");
  const std::vector<double> shared_body_pos(
      shared->body_pos, shared->body_pos + 3 * shared->nbody);
  ModelView one(shared, {{&mjModel::body_pos, &mjModel::nbody, 3},
                         {&mjModel::actuator_gainprm, &mjModel::nu, mjNGAIN}});
  ModelView two(shared, {{&mjModel::body_pos, &mjModel::nbody, 3}});
  EXPECT_EQ(one.shared(), shared.get());
  // The arrays not written are the shared model's, not copies.
  EXPECT_EQ(one->geom_size, shared->geom_size);
  EXPECT_EQ(two->body_quat, shared->body_quat);
  EXPECT_EQ(two->actuator_gainprm, shared->actuator_gainprm);
  EXPECT_EQ(one->nbody, shared->nbody);
  EXPECT_EQ(one->opt.timestep, shared->opt.timestep);
  // The written ones start as the shared model's values, in the view's own
  // storage: a write changes neither the shared model nor another view.
  EXPECT_NE(one->body_pos, shared->body_pos);
  EXPECT_NE(one->body_pos, two->body_pos);
  EXPECT_EQ(std::vector<double>(one->body_pos, one->body_pos + 3 * one->nbody),
            shared_body_pos);
  one->body_pos[3 * 1 + 2] = 7.0;
  one->actuator_gainprm[0] = 3.0;
  EXPECT_EQ(shared->body_pos[3 * 1 + 2], 1.0);
  EXPECT_EQ(two->body_pos[3 * 1 + 2], 1.0);
  EXPECT_EQ(shared->actuator_gainprm[0], 1.0);
  // The view steps as a model: the pole starts at its own height.
  DataPtr data(mj_makeData(one.get()));
  mj_forward(one.get(), data.get());
  EXPECT_EQ(data->xpos[3 * 1 + 2], 7.0);
}

TEST(SpecTest, FrameSkipIsCheckedAndSetsTheFrameRate) {
  WriteModels("folder_i");
  const SharedModel model = LoadModel(Folder("folder_i", false), "pole.xml");
  Options options{{"frame_skip", int64_t{3}}};
  EnvSpec spec;
  DeclareModelRendering(options, *model, 480, 320, &spec);
  EXPECT_EQ(spec.render_fps, 33);  // round(1 / 0.03)
  EXPECT_EQ(spec.render_width, 480);
  EXPECT_EQ(spec.render_height, 320);
  EXPECT_EQ(spec.render_modes, std::vector<std::string>{"rgb_array"});
  options.Set("frame_skip", int64_t{0});
  try {
    DeclareModelRendering(options, *model, 480, 320, &spec);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "option 'frame_skip' must be at least 1, got 0");
  }
}

TEST(NumpyMathTest, SumsPairwiseAsNumpy) {
  // Eight interleaved partial sums, then the rest in order: 5.75 where a
  // running sum gives 6.75.
  const std::vector<double> x{1e16, 1.0, -1e16, 1.0, 0.5, 0.25, 3.0, 1.0, 1.0};
  EXPECT_EQ(NumpySum(x.data(), 9), 5.75);
  EXPECT_EQ(NumpyMean(x.data(), 9), 5.75 / 9);
  const std::vector<double> small{0.1, 0.2, 0.3};
  EXPECT_EQ(NumpySum(small.data(), 3), (0.1 + 0.2) + 0.3);
  EXPECT_EQ(SumOfSquares(small.data(), 3), (0.1 * 0.1 + 0.2 * 0.2) + 0.09);
}

TEST(NumpyMathTest, NormAndDotRoundAsNumpysBlasDoes) {
  // np.linalg.norm([0.612, -0.367]) by FMAs; products and sums give one ulp
  // more.
  const double v[2] = {0.612, -0.367};
  numpy_blas::Roundings& blas = numpy_blas::Blas();
  const numpy_blas::Roundings saved = blas;
  EXPECT_EQ(NumpyNorm(v, 2), 0.7136056333858358);  // the default
  EXPECT_EQ(PlainNorm(v, 2), 0.7136056333858359);
  blas.dot2 = numpy_blas::Rounding::kPlain;
  EXPECT_EQ(NumpyNorm(v, 2), 0.7136056333858359);
  EXPECT_EQ(PlainNorm(v, 2), 0.7136056333858359);
  // Longer vectors follow the rounding of the longer sums.
  const double w[3] = {0.612, -0.367, 0.0};
  EXPECT_EQ(NumpyNorm(w, 3), 0.7136056333858358);
  blas.dot = numpy_blas::Rounding::kPlain;
  EXPECT_EQ(NumpyNorm(w, 3), 0.7136056333858359);
  EXPECT_EQ(NumpyDot(w, w, 3), 0.612 * 0.612 + -0.367 * -0.367);
  blas = saved;
}

TEST(MessageHandlersTest, WarningsGoToStderrButTheSettotalmassDeprecation) {
  InstallMessageHandlers();
  testing::internal::CaptureStderr();
  mju_warning(
      "compiler attribute 'settotalmass' is deprecated and will be "
      "removed in a future release");
  mju_warning("some other warning %d", 7);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "MuJoCo warning: some other warning 7\n");
  EXPECT_TRUE(IsQuietWarning("'settotalmass' is deprecated"));
  EXPECT_FALSE(IsQuietWarning("Nan, Inf or huge value in QACC"));
}

TEST(MessageHandlersTest, ErrorsAreExceptions) {
  InstallMessageHandlers();
  try {
    mju_error("bad size %d", 3);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "MuJoCo error: bad size 3");
  }
}

}  // namespace
}  // namespace envpool::mujoco_common
