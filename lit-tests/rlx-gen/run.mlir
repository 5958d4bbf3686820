// The models run through rlx-run deterministically: with rlx-gen's weights
// and inputs, and with rlx-run's own seeded ones.
// RUN: rm -rf %t.in
// RUN: rlx-gen kimi --seed 3 --weights %t.safetensors --inputs %t.in > %t.kimi.mlir
// RUN: rlx-run %t.kimi.mlir --weights %t.safetensors --inputs %t.in/in0.npy,%t.in/in1.npy,%t.in/in2.npy,%t.in/in3.npy,%t.in/in4.npy,%t.in/in5.npy,%t.in/in6.npy,%t.in/in7.npy,%t.in/in8.npy > %t.run1
// RUN: rlx-run %t.kimi.mlir --weights %t.safetensors --inputs %t.in/in0.npy,%t.in/in1.npy,%t.in/in2.npy,%t.in/in3.npy,%t.in/in4.npy,%t.in/in5.npy,%t.in/in6.npy,%t.in/in7.npy,%t.in/in8.npy > %t.run2
// RUN: diff %t.run1 %t.run2
// RUN: FileCheck %s --check-prefix=KIMI --input-file=%t.run1
// RUN: rlx-gen qwen35 > %t.qwen35.mlir
// RUN: rlx-run %t.qwen35.mlir --seed 1 > %t.q1
// RUN: rlx-run %t.qwen35.mlir --seed 1 > %t.q2
// RUN: diff %t.q1 %t.q2
// RUN: FileCheck %s --check-prefix=QWEN --input-file=%t.q1
// RUN: rlx-gen zonos > %t.zonos.mlir
// RUN: rlx-run %t.zonos.mlir --seed 1 > %t.z1
// RUN: rlx-run %t.zonos.mlir --seed 1 > %t.z2
// RUN: diff %t.z1 %t.z2
// RUN: FileCheck %s --check-prefix=ZONOS --input-file=%t.z1

// KIMI: result 0: tensor<1x64xf32> checksum
// KIMI: result 8: tensor<1x8x8xf32> checksum
// QWEN: result 0: tensor<1x256xf32> checksum
// QWEN: result 8: tensor<1x4x16x16xf32> checksum
// ZONOS: result 0: tensor<1x9x64xf32> checksum
// ZONOS: result 4: tensor<2x2x8x16xf32> checksum
