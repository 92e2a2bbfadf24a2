// The planar manipulator (dm_control suite/manipulator.py and stacker.py):
// an arm with a two-finger hand brings a ball or a peg to a target, maybe
// inserting it (Manipulator), or stacks 2 or 4 boxes (Stacker).  Both build
// their model from the suite's XML by removing the props they do not use.
#ifndef ENVPOOL_DM_CONTROL_MANIPULATOR_H_
#define ENVPOOL_DM_CONTROL_MANIPULATOR_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"

namespace envpool::dm_control {

// What the two tasks share: the arm's joints, touch sensors and features.
class PlanarArmEnv : public DmcEnv {
 protected:
  PlanarArmEnv(const Options& options, const DmcFields& fields,
               std::shared_ptr<const mjModel> model)
      : DmcEnv(options, fields, std::move(model)),
        hand_(Id(mjOBJ_BODY, "hand")),
        finger_(QposAdr("finger")),
        thumb_(QposAdr("thumb")) {
    for (const char* joint :
         {"arm_root", "arm_shoulder", "arm_elbow", "arm_wrist", "finger",
          "fingertip", "thumb", "thumbtip"}) {
      const int j = Id(mjOBJ_JOINT, joint);
      arm_joints_.push_back(j);
    }
    for (const char* sensor : {"palm_touch", "finger_touch", "thumb_touch",
                               "fingertip_touch", "thumbtip_touch"}) {
      touch_.push_back(Sensor(sensor));
    }
  }

  // Arm angles uniform in the joints' ranges (+-pi where unlimited), the
  // finger as the thumb.
  void RandomizeArm() {
    for (int j : arm_joints_) {
      const bool limited = model_->jnt_limited[j] != 0;
      const double low = limited ? model_->jnt_range[2 * j] : -M_PI;
      const double high = limited ? model_->jnt_range[2 * j + 1] : M_PI;
      data_->qpos[model_->jnt_qposadr[j]] = random_.Uniform(low, high);
    }
    data_->qpos[finger_] = data_->qpos[thumb_];
  }

  // arm_pos (sin, cos of each arm joint), arm_vel, touch, hand_pos.
  void ObserveArm(const std::vector<double*>& obs) const {
    for (std::size_t k = 0; k < arm_joints_.size(); ++k) {
      const int j = arm_joints_[k];
      const double q = data_->qpos[model_->jnt_qposadr[j]];
      obs[0][2 * k] = std::sin(q);
      obs[0][2 * k + 1] = std::cos(q);
      obs[1][k] = data_->qvel[model_->jnt_dofadr[j]];
    }
    for (std::size_t k = 0; k < touch_.size(); ++k) {
      obs[2][k] = std::log1p(touch_[k][0]);
    }
    BodyPose(hand_, obs[3], true);
  }

  // x, z of the body, then its quaternion's w, y.
  void BodyPose(int body, double* out, bool orientation) const {
    out[0] = data_->xpos[3 * body];
    out[1] = data_->xpos[3 * body + 2];
    if (orientation) {
      out[2] = data_->xquat[4 * body];
      out[3] = data_->xquat[4 * body + 2];
    }
  }

  double SiteDistance(int site1, int site2) const {
    double d[3];
    for (int i = 0; i < 3; ++i) {
      d[i] = data_->site_xpos[3 * site1 + i] - data_->site_xpos[3 * site2 + i];
    }
    return Norm(d, 3);
  }

  static std::vector<ObsKey> ArmKeys() {
    return {{"arm_pos", {8, 2}},
            {"arm_vel", {8}},
            {"touch", {5}},
            {"hand_pos", {4}}};
  }

  int hand_;
  int finger_;
  int thumb_;
  std::vector<int> arm_joints_;
  std::vector<const double*> touch_;
};

class ManipulatorEnv : public PlanarArmEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("bring_ball", 10); }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask("manipulator", task,
              {"bring_ball", "bring_peg", "insert_ball", "insert_peg"});
    std::vector<ObsKey> keys = ArmKeys();
    keys.push_back({"object_pos", {4}});
    keys.push_back({"object_vel", {3}});
    keys.push_back({"target_pos", {4}});
    DeclareDmc(options, *Model(task), keys, spec, fields);
  }

  // manipulator.xml without the props the task does not use (make_model).
  static std::shared_ptr<const mjModel> Model(const std::string& task) {
    const bool peg = task.find("peg") != std::string::npos;
    const bool insert = task.rfind("insert", 0) == 0;
    std::vector<std::string> keep =
        peg ? std::vector<std::string>{"peg", "target_peg"}
            : std::vector<std::string>{"ball", "target_ball"};
    if (insert) {
      keep.push_back(peg ? "slot" : "cup");
    }
    std::string xml = ReadModelFile("manipulator.xml");
    for (const char* prop :
         {"ball", "target_ball", "cup", "peg", "target_peg", "slot"}) {
      if (std::find(keep.begin(), keep.end(), prop) == keep.end()) {
        RemoveElement(&xml, "body", prop);
      }
    }
    return LoadModelFromText("manipulator_" + task, xml);
  }

  ManipulatorEnv(const Options& options, const Fields& fields)
      : PlanarArmEnv(options, fields,
                     Model(options.Get<std::string>("task_name"))),
        use_peg_(options.Get<std::string>("task_name").find("peg") !=
                 std::string::npos),
        insert_(options.Get<std::string>("task_name").rfind("insert", 0) == 0),
        object_(Id(mjOBJ_BODY, use_peg_ ? "peg" : "ball")),
        target_(Id(mjOBJ_BODY, use_peg_ ? "target_peg" : "target_ball")),
        receptacle_(insert_ ? Id(mjOBJ_BODY, use_peg_ ? "slot" : "cup") : -1),
        grasp_(Id(mjOBJ_SITE, "grasp")) {
    const std::string object = use_peg_ ? "peg" : "ball";
    for (const char* dim : {"_x", "_z", "_y"}) {
      object_joints_.push_back(Id(mjOBJ_JOINT, (object + dim).c_str()));
    }
    if (use_peg_) {
      peg_grasp_ = Id(mjOBJ_SITE, "peg_grasp");
      pinch_ = Id(mjOBJ_SITE, "pinch");
      peg_pinch_ = Id(mjOBJ_SITE, "peg_pinch");
      peg_site_ = Id(mjOBJ_SITE, "peg");
      target_peg_site_ = Id(mjOBJ_SITE, "target_peg");
      target_peg_tip_ = Id(mjOBJ_SITE, "target_peg_tip");
      peg_tip_ = Id(mjOBJ_SITE, "peg_tip");
    } else {
      ball_site_ = Id(mjOBJ_SITE, "ball");
      target_ball_site_ = Id(mjOBJ_SITE, "target_ball");
    }
  }

 protected:
  void InitializeEpisode() override {
    bool penetrating = true;
    while (penetrating) {
      RandomizeArm();
      const double target_x = random_.Uniform(-.4, .4);
      const double target_z = random_.Uniform(.1, .4);
      double target_angle = 0.0;
      if (insert_) {
        target_angle = random_.Uniform(-M_PI / 3, M_PI / 3);
        SetPose(receptacle_, target_x, target_z, target_angle);
      } else {
        target_angle = random_.Uniform(-M_PI, M_PI);
      }
      SetPose(target_, target_x, target_z, target_angle);
      // choice(['in_hand', 'in_target', 'uniform'], p=[.1, .1, .8]): one
      // random_sample against the cumulative probabilities.
      const double u = random_.RandomSample();
      const double p_uniform = 1 - .1 - .1;
      const double cdf[3] = {.1, .1 + .1, (.1 + .1) + p_uniform};
      int init_type = 0;
      for (double c : cdf) {
        init_type += c / cdf[2] <= u ? 1 : 0;
      }
      double object_x = 0.0;
      double object_z = 0.0;
      double object_angle = 0.0;
      if (init_type == 1) {  // in_target
        object_x = target_x;
        object_z = target_z;
        object_angle = target_angle;
      } else if (init_type == 0) {  // in_hand
        AfterReset();
        object_x = data_->site_xpos[3 * grasp_];
        object_z = data_->site_xpos[3 * grasp_ + 2];
        const double* m = data_->site_xmat + 9 * grasp_;
        object_angle = M_PI - std::atan2(m[6], m[0]);
      } else {
        object_x = random_.Uniform(-.5, .5);
        object_z = random_.Uniform(0, .7);
        object_angle = random_.Uniform(0, 2 * M_PI);
        data_->qvel[model_->jnt_dofadr[object_joints_[0]]] =
            random_.Uniform(-5, 5);
      }
      data_->qpos[model_->jnt_qposadr[object_joints_[0]]] = object_x;
      data_->qpos[model_->jnt_qposadr[object_joints_[1]]] = object_z;
      data_->qpos[model_->jnt_qposadr[object_joints_[2]]] = object_angle;
      AfterReset();
      penetrating = data_->ncon > 0;
    }
  }

  double GetReward() override {
    if (!use_peg_) {
      return IsClose(SiteDistance(ball_site_, target_ball_site_));
    }
    const double grasp = IsClose(SiteDistance(peg_grasp_, grasp_));
    const double pinch = IsClose(SiteDistance(peg_pinch_, pinch_));
    const double grasping = (grasp + pinch) / 2;
    const double bring = IsClose(SiteDistance(peg_site_, target_peg_site_));
    const double bring_tip = IsClose(SiteDistance(target_peg_tip_, peg_tip_));
    const double bringing = (bring + bring_tip) / 2;
    return std::max(bringing, grasping / 3);
  }

  void Observe(const std::vector<double*>& obs) const override {
    ObserveArm(obs);
    BodyPose(object_, obs[4], true);
    for (int k = 0; k < 3; ++k) {
      obs[5][k] = data_->qvel[model_->jnt_dofadr[object_joints_[k]]];
    }
    BodyPose(target_, obs[6], true);
  }

 private:
  static double IsClose(double distance) {
    return Tolerance(distance, 0.0, .01, .02);
  }

  void SetPose(int body, double x, double z, double angle) {
    model_->body_pos[3 * body] = x;
    model_->body_pos[3 * body + 2] = z;
    model_->body_quat[4 * body] = std::cos(angle / 2);
    model_->body_quat[4 * body + 2] = std::sin(angle / 2);
  }

  bool use_peg_;
  bool insert_;
  int object_;
  int target_;
  int receptacle_;
  int grasp_;
  std::vector<int> object_joints_;
  int peg_grasp_ = -1;
  int pinch_ = -1;
  int peg_pinch_ = -1;
  int peg_site_ = -1;
  int target_peg_site_ = -1;
  int target_peg_tip_ = -1;
  int peg_tip_ = -1;
  int ball_site_ = -1;
  int target_ball_site_ = -1;
};

class StackerEnv : public PlanarArmEnv {
 public:
  using Fields = DmcFields;

  static Options DefaultOptions() { return DmcOptions("stack_2", 10); }

  static int Boxes(const std::string& task) {
    return task == "stack_2" ? 2 : 4;
  }

  static void Declare(const Options& options, EnvSpec* spec, Fields* fields) {
    const std::string task = options.Get<std::string>("task_name");
    CheckTask("stacker", task, {"stack_2", "stack_4"});
    const int n = Boxes(task);
    std::vector<ObsKey> keys = ArmKeys();
    keys.push_back({"box_pos", {n, 4}});
    keys.push_back({"box_vel", {3 * n}});
    keys.push_back({"target_pos", {2}});
    DeclareDmc(options, *Model(n), keys, spec, fields);
  }

  // stacker.xml without the boxes beyond n (make_model).
  static std::shared_ptr<const mjModel> Model(int n_boxes) {
    std::string xml = ReadModelFile("stacker.xml");
    for (int b = n_boxes; b < 4; ++b) {
      RemoveElement(&xml, "body", "box" + std::to_string(b));
    }
    return LoadModelFromText("stacker_" + std::to_string(n_boxes), xml);
  }

  StackerEnv(const Options& options, const Fields& fields)
      : PlanarArmEnv(options, fields,
                     Model(Boxes(options.Get<std::string>("task_name")))),
        n_boxes_(Boxes(options.Get<std::string>("task_name"))),
        target_body_(Id(mjOBJ_BODY, "target")),
        target_geom_(Id(mjOBJ_GEOM, "target")),
        target_site_(Id(mjOBJ_SITE, "target")),
        grasp_(Id(mjOBJ_SITE, "grasp")) {
    for (int b = 0; b < n_boxes_; ++b) {
      const std::string box = "box" + std::to_string(b);
      boxes_.push_back(Id(mjOBJ_BODY, box.c_str()));
      box_sites_.push_back(Id(mjOBJ_SITE, box.c_str()));
      for (const char* dim : {"_x", "_y", "_z"}) {
        box_joints_.push_back(Id(mjOBJ_JOINT, (box + dim).c_str()));
      }
    }
  }

 protected:
  void InitializeEpisode() override {
    bool penetrating = true;
    while (penetrating) {
      RandomizeArm();
      const int64_t target_height =
          2 * random_.Randint<int64_t>(0, n_boxes_) + 1;
      const double box_size = model_->geom_size[3 * target_geom_];
      model_->body_pos[3 * target_body_ + 2] =
          box_size * static_cast<double>(target_height);
      model_->body_pos[3 * target_body_] = random_.Uniform(-.37, .37);
      for (int b = 0; b < n_boxes_; ++b) {
        const int* j = &box_joints_[3 * b];  // x, y, z
        data_->qpos[model_->jnt_qposadr[j[0]]] = random_.Uniform(.1, .3);
        data_->qpos[model_->jnt_qposadr[j[2]]] = random_.Uniform(0, .7);
        data_->qpos[model_->jnt_qposadr[j[1]]] = random_.Uniform(0, 2 * M_PI);
      }
      AfterReset();
      penetrating = data_->ncon > 0;
    }
  }

  double GetReward() override {
    const double box_size = model_->geom_size[3 * target_geom_];
    double nearest = SiteDistance(box_sites_[0], target_site_);
    for (int b = 1; b < n_boxes_; ++b) {
      nearest = std::min(nearest, SiteDistance(box_sites_[b], target_site_));
    }
    const double box_is_close = Tolerance(nearest, 0.0, 0.0, 2 * box_size);
    const double hand_is_far =
        Tolerance(SiteDistance(grasp_, target_site_), .1, kInf, .01);
    return box_is_close * hand_is_far;
  }

  void Observe(const std::vector<double*>& obs) const override {
    ObserveArm(obs);
    for (int b = 0; b < n_boxes_; ++b) {
      BodyPose(boxes_[b], obs[4] + 4 * b, true);
    }
    for (std::size_t k = 0; k < box_joints_.size(); ++k) {
      obs[5][k] = data_->qvel[model_->jnt_dofadr[box_joints_[k]]];
    }
    BodyPose(target_body_, obs[6], false);
  }

 private:
  int n_boxes_;
  int target_body_;
  int target_geom_;
  int target_site_;
  int grasp_;
  std::vector<int> boxes_;
  std::vector<int> box_sites_;
  std::vector<int> box_joints_;
};

}  // namespace envpool::dm_control

#endif  // ENVPOOL_DM_CONTROL_MANIPULATOR_H_
