// The shared pieces of the dm_control family that need no model: the
// tolerance family of rewards, the model-text edits and the missing-model
// error (the Python tests align every task with dm_control).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/dm_control/dmc_env.h"
#include "envpool/dm_control/terrain.h"

namespace envpool::dm_control {
namespace {

// scipy.ndimage.zoom(x, 5 / 3.0) of this 3x4 array (scipy 1.17.1), printed
// with 17 digits: the same bits.
TEST(NdimageZoomTest, IsScipysCubicSplineZoomBitForBit) {
  const std::vector<double> x{0.0,
                              1.0,
                              2.8284271247461903,
                              0.19615242270663202,
                              3.0,
                              1.180339887498949,
                              4.696938456699069,
                              3.5202591774521323,
                              2.6274169979695223,
                              2.0,
                              1.6227766016837926,
                              1.4828726939093997};
  const std::vector<double> want{3.3640681241712766e-16,
                                 0.19706109809304664,
                                 1.0000000000000002,
                                 2.3682479001280408,
                                 2.8284271247461903,
                                 1.3611943378784193,
                                 0.19615242270663197,
                                 1.2536796564403574,
                                 0.88137540878559406,
                                 0.99641994374947462,
                                 2.6711758654939426,
                                 3.8757125272597297,
                                 2.8152089122769057,
                                 1.7375757746541229,
                                 3.0000000000000004,
                                 1.9789740803283971,
                                 1.1803398874989497,
                                 2.8582665679422452,
                                 4.6969384566990708,
                                 4.3001672846534422,
                                 3.5202591774521323,
                                 3.0600288425444044,
                                 2.3967513985698599,
                                 1.6839199437494747,
                                 2.2464392347960747,
                                 3.0468277926543301,
                                 2.928669504863084,
                                 2.6221959611060255,
                                 2.6274169979695219,
                                 2.4012443559610692,
                                 2,
                                 1.7504491645675051,
                                 1.6227766016837928,
                                 1.526227927094679,
                                 1.4828726939094001};
  int rows = 0;
  int cols = 0;
  const std::vector<double> got = NdimageZoom(x, 3, 4, 5 / 3.0, &rows, &cols);
  EXPECT_EQ(rows, 5);
  EXPECT_EQ(cols, 7);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << i;
  }
}

TEST(ToleranceTest, IsOneInsideTheBoundsAndZeroOutsideWithoutMargin) {
  EXPECT_EQ(Tolerance(0.5, 0.0, 1.0), 1.0);
  EXPECT_EQ(Tolerance(1.0, 0.0, 1.0), 1.0);
  EXPECT_EQ(Tolerance(1.5, 0.0, 1.0), 0.0);
  EXPECT_EQ(Tolerance(-1e-9, 0.0, 1.0), 0.0);
  EXPECT_EQ(Tolerance(3.0, 1.0, kInf, 0.5), 1.0);
}

TEST(ToleranceTest, EverySigmoidGivesValueAtMarginOneMarginAway) {
  for (Sigmoid sigmoid :
       {Sigmoid::kGaussian, Sigmoid::kHyperbolic, Sigmoid::kLongTail,
        Sigmoid::kReciprocal, Sigmoid::kCosine, Sigmoid::kLinear,
        Sigmoid::kQuadratic, Sigmoid::kTanhSquared}) {
    EXPECT_NEAR(Tolerance(3.0, 0.0, 1.0, 2.0, sigmoid, 0.25), 0.25, 1e-12);
    EXPECT_NEAR(Tolerance(-2.0, 0.0, 1.0, 2.0, sigmoid, 0.25), 0.25, 1e-12);
    // Halfway into the margin lies between the bound and the margin.
    const double half = Tolerance(2.0, 0.0, 1.0, 2.0, sigmoid, 0.25);
    EXPECT_GT(half, 0.25);
    EXPECT_LT(half, 1.0);
  }
}

TEST(ToleranceTest, BoundedSigmoidsReachZeroBeyondTheirSupport) {
  // linear with value_at_margin 0 is 1 - d, zero from d = 1 on.
  EXPECT_DOUBLE_EQ(Tolerance(0.25, 0.0, 0.0, 1.0, Sigmoid::kLinear, 0.0), 0.75);
  EXPECT_EQ(Tolerance(1.0, 0.0, 0.0, 1.0, Sigmoid::kLinear, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(Tolerance(0.5, 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0),
                   0.75);
  EXPECT_EQ(Tolerance(2.0, 0.0, 0.0, 1.0, Sigmoid::kQuadratic, 0.0), 0.0);
  EXPECT_EQ(Tolerance(5.0, 0.0, 0.0, 1.0, Sigmoid::kCosine, 0.0), 0.0);
  // gaussian with the default 0.1: exp(-0.5 (d sqrt(-2 ln 0.1))^2) = 0.1^(d^2).
  EXPECT_NEAR(Tolerance(0.5, 0.0, 0.0, 1.0), std::pow(0.1, 0.25), 1e-15);
}

TEST(NumpyMathTest, SumsPairwiseAsNumpyAndNormsBySquares) {
  double x[20];
  for (int i = 0; i < 20; ++i) {
    x[i] = 1.0 / (i + 1);
  }
  double plain = 0.0;
  for (double v : x) {
    plain += v;
  }
  EXPECT_NEAR(NumpySum(x, 20), plain, 1e-14);
  EXPECT_DOUBLE_EQ(NumpyMean(x, 4), (1.0 + 0.5 + 1.0 / 3 + 0.25) / 4);
  const double v[2] = {3.0, 4.0};
  EXPECT_EQ(Norm(v, 2), 5.0);
}

TEST(ModelTextTest, RemovesNestedAndSelfClosingElements) {
  std::string xml =
      "<worldbody><body name=\"keep\"><geom name=\"g\"/></body>"
      "<body  name=\"prop\" pos=\"0 0 1\"><body name=\"inner\"><site "
      "name=\"s\"/></body><geom name=\"x\"/></body>"
      "<geom name=\"wall\" size=\"1 1 1\"/><rangefinder site=\"a\"/>"
      "<rangefinder site=\"b\"/></worldbody>";
  RemoveElement(&xml, "body", "prop");
  RemoveElement(&xml, "geom", "wall");
  RemoveAll(&xml, "rangefinder");
  EXPECT_EQ(xml,
            "<worldbody><body name=\"keep\"><geom name=\"g\"/></body>"
            "</worldbody>");
  EXPECT_THROW(RemoveElement(&xml, "body", "prop"), std::runtime_error);
  Replace(&xml, "</worldbody>", "<geom/></worldbody>");
  EXPECT_NE(xml.find("<geom/></worldbody>"), std::string::npos);
  EXPECT_THROW(Replace(&xml, "nothing", ""), std::runtime_error);
}

TEST(ModelTextTest, NumbersParseBackToTheSameDouble) {
  for (double x : {-1.05, -2.05, 24.0, 360.0 / 7, 0.1}) {
    EXPECT_EQ(std::strtod(XmlNumber(x).c_str(), nullptr), x);
  }
}

TEST(ModelTest, AMissingModelIsAnErrorNamingIt) {
  envpool::SetFamilyAssetDir("dm_control", "/nonexistent-dm-control-assets");
  try {
    LoadModel("cheetah.xml");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cheetah.xml"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("reinstall"), std::string::npos);
  }
  EXPECT_THROW(ReadModelFile("swimmer.xml"), std::invalid_argument);
}

}  // namespace
}  // namespace envpool::dm_control
