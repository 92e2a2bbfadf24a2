#include "envpool/core/array.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace envpool {
namespace {

ArraySpec Binary(DType dtype, double low, double high) {
  ArraySpec spec;
  spec.name = "obs";
  spec.dtype = dtype;
  spec.shape = {3, 2};
  spec.low = {low};
  spec.high = {high};
  spec.binary = true;
  return spec;
}

TEST(SchemaTest, TakesABinaryArrayAsGymnasiumsMultiBinary) {
  Schema schema;
  schema.Add<int8_t>(Binary(DType::kInt8, 0.0, 1.0));
  EXPECT_TRUE(schema.specs()[0].binary);
}

TEST(SchemaTest, RefusesABinaryArrayOfAnotherDtypeOrBounds) {
  Schema schema;
  EXPECT_THROW(schema.Add<float>(Binary(DType::kFloat32, 0.0, 1.0)),
               std::logic_error);
  EXPECT_THROW(schema.Add<int8_t>(Binary(DType::kInt8, 0.0, 2.0)),
               std::logic_error);
  ArraySpec discrete = Binary(DType::kInt8, 0.0, 1.0);
  discrete.num_values = 2;
  EXPECT_THROW(schema.Add<int8_t>(discrete), std::logic_error);
  EXPECT_EQ(schema.size(), 0);
}

}  // namespace
}  // namespace envpool
