// The robotics family's rules that need no mesh: the mazes of maps.py and
// PointMaze's dynamics and rewards (the Python tests align every id with
// gymnasium-robotics). The point mass model is written into the test's own
// asset folder, so that the test reads nothing outside it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/robotics/goal_env.h"
#include "envpool/robotics/point_maze.h"

namespace envpool::robotics {
namespace {

// gymnasium-robotics 1.4.2's assets/point/point.xml, less its comment.
constexpr char kPointXml[] = R"(<mujoco>
  <compiler inertiafromgeom="true" angle="radian" coordinate="local"/>
  <option timestep="0.01" gravity="0 0 0" iterations="20" integrator="Euler"/>
  <default>
    <joint damping="1" limited='false'/>
    <geom friction=".5 .1 .1" density="1000" margin="0.002" condim="1" contype="2" conaffinity="1"/>
  </default>
  <worldbody>
    <geom name="ground" size="40 40 0.25" pos="0 0 -0.1" type="plane" contype="1" conaffinity="0"/>
    <body name="particle" pos="0 0 0">
      <geom name="particle_geom" type="sphere" size="0.1" rgba="0.0 0.0 1.0 0.0" contype="1"/>
      <site name="particle_site" pos="0.0 0.0 0.0" size="0.2" rgba="0.3 0.6 0.3 1"/>
      <joint name="ball_x" type="slide" pos="0 0 0" axis="1 0 0"/>
      <joint name="ball_y" type="slide" pos="0 0 0" axis="0 1 0"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="motor_x" joint="ball_x" ctrlrange="-1.0 1.0" ctrllimited="true" gear= "100"/>
    <motor name="motor_y" joint="ball_y" ctrlrange="-1.0 1.0" ctrllimited="true" gear="100"/>
  </actuator>
</mujoco>
)";

class PointMazeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    const std::filesystem::path dir =
        std::filesystem::path(tmp != nullptr ? tmp : "/tmp") /
        "robotics_assets";
    std::filesystem::create_directories(dir / "point");
    std::ofstream(dir / "point" / "point.xml") << kPointXml;
    SetFamilyAssetDir("robotics", dir.string());
  }

  static Options MazeOptions(const std::string& maze_map) {
    Options options = CommonOptions();
    const Options own = PointMazeEnv::DefaultOptions();
    for (const auto& [key, value] : own.items()) {
      options.Define(key, value);
    }
    options.Set("maze_map", maze_map);
    return options;
  }
};

int Count(const std::string& text, const std::string& word) {
  int n = 0;
  for (auto at = text.find(word); at != std::string::npos;
       at = text.find(word, at + 1)) {
    ++n;
  }
  return n;
}

TEST_F(PointMazeTest, UMazeHasItsWallsAndEveryFreeCellIsGoalAndReset) {
  const Maze maze = MakeMaze("U_MAZE", 1.0, 0.4);
  EXPECT_EQ(Count(maze.xml, "name=\"block_"), 18);
  EXPECT_EQ(Count(maze.xml, "name=\"target\""), 1);
  ASSERT_EQ(maze.goal_locations.size(), 7U);
  EXPECT_EQ(maze.reset_locations, maze.goal_locations);
  // Row 1, column 1: the maze is centred on the origin, y upwards.
  EXPECT_EQ(maze.goal_locations[0][0], -1.0);
  EXPECT_EQ(maze.goal_locations[0][1], 1.0);
}

TEST_F(PointMazeTest, DiverseMazesKeepTheirMarkedCells) {
  const Maze goals = MakeMaze("OPEN_DIVERSE_G", 1.0, 0.4);
  EXPECT_EQ(goals.goal_locations.size(), 14U);
  ASSERT_EQ(goals.reset_locations.size(), 1U);
  EXPECT_EQ(goals.reset_locations[0][0], -2.0);
  EXPECT_EQ(goals.reset_locations[0][1], 1.0);
  const Maze both = MakeMaze("LARGE_MAZE_DIVERSE_GR", 2.0, 0.4);
  EXPECT_EQ(both.goal_locations.size(), 8U);
  EXPECT_EQ(both.reset_locations, both.goal_locations);
  for (const char* name :
       {"OPEN", "MEDIUM_MAZE", "MEDIUM_MAZE_DIVERSE_G",
        "MEDIUM_MAZE_DIVERSE_GR", "LARGE_MAZE", "LARGE_MAZE_DIVERSE_G"}) {
    const Maze maze = MakeMaze(name, 1.0, 0.4);
    for (const std::string& row : maze.rows) {
      EXPECT_EQ(row.size(), maze.rows[0].size()) << name;
    }
  }
}

TEST_F(PointMazeTest, UnknownMapNamesTheValidOnes) {
  try {
    MakeMaze("SMALL_MAZE", 1.0, 0.4);
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("U_MAZE"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("SMALL_MAZE"), std::string::npos);
  }
}

TEST_F(PointMazeTest, VelocityIsClippedToFiveBeforeAStep) {
  const Options options = MazeOptions("OPEN");
  PointMazeEnv env(options, DeclareFields<PointMazeEnv>(options));
  env.Seed(0);
  env.Reset();
  std::vector<double> state = env.GetState();
  state[2] = 40.0;  // qvel x
  state[3] = -40.0;
  env.SetState(state);
  std::vector<float> zero(2, 0.0F);
  const std::vector<const void*> arrays{zero.data()};
  env.Step(ActionView(&arrays));
  const std::vector<double> after = env.GetState();
  // Clipped to 5, then slowed by the joints' damping over one step.
  EXPECT_LE(after[2], 5.0);
  EXPECT_GT(after[2], 4.0);
  EXPECT_GE(after[3], -5.0);
  EXPECT_LT(after[3], -4.0);
}

TEST_F(PointMazeTest, SparseRewardAndTerminationAtTheGoal) {
  Options options = MazeOptions("OPEN");
  options.Set("continuing_task", false);
  PointMazeEnv env(options, DeclareFields<PointMazeEnv>(options));
  env.Seed(1);
  env.Reset();
  // The ball at rest at the centre of the cell (1, 1), the goal 0.3 away
  // (reached: within 0.45), then 1.0 away.
  std::vector<double> state = env.GetState();
  state[0] = -2.0;
  state[1] = 1.0;
  state[2] = state[3] = 0.0;
  state[6] = -1.7;
  state[7] = 1.0;
  env.SetState(state);
  std::vector<float> zero(2, 0.0F);
  const std::vector<const void*> arrays{zero.data()};
  env.Step(ActionView(&arrays));
  EXPECT_EQ(env.reward(), 1.0);
  EXPECT_TRUE(env.terminated());
  state[6] = -1.0;
  env.SetState(state);
  env.Step(ActionView(&arrays));
  EXPECT_EQ(env.reward(), 0.0);
  EXPECT_FALSE(env.terminated());
}

TEST(FloatTextTest, ReadsBackTheSameDouble) {
  for (double x : {0.1, -2.5, 1.0 / 3.0, 0.2 * 1.7, 1e-300}) {
    EXPECT_EQ(std::strtod(FloatText(x).c_str(), nullptr), x);
  }
}

}  // namespace
}  // namespace envpool::robotics
