// RUN: rlx-opt %s --hybrid-split -o %t.split.mlir
// RUN: rlx-translate --mlir-to-llvmir %t.split.mlir -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=HDR < %t.h
// RUN: rlx-translate --mlir-to-llvmir --carry-states=true --arena-align=64 %t.split.mlir | FileCheck %s --check-prefix=CARRY
// RUN: not rlx-translate --mlir-to-llvmir --arena-align=48 %t.split.mlir 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not rlx-translate --mlir-to-llvmir %s 2>&1 | FileCheck %s --check-prefix=UNSPLIT
// RUN: rlx-opt %s --hybrid-split=target=cpu -o %t.cpu.mlir
// RUN: not rlx-translate --mlir-to-llvmir %t.cpu.mlir 2>&1 | FileCheck %s --check-prefix=HOST

// The host module of a split function (docs/apps.md): an MPS region whose
// two results one Metal kernel reads, then an MPS region; the plan's
// slots, grids and bindings are constants, and rlx_step_run encodes every
// step and waits once, at the end.

// CHECK: %rlx_context = type opaque
// CHECK: %rlx_binding = type { i32, i32, i64, i64 }
// CHECK: %rlx_tensor = type { i8*, i32, i32, i64, i64, i32, i64* }
// CHECK: @rlx_step_str.[[EW:[0-9]+]] = private unnamed_addr constant [5 x i8] c"ew_0\00"
// CHECK: @rlx_step_str.[[WQ:[0-9]+]] = private unnamed_addr constant [3 x i8] c"wq\00"
// CHECK: @rlx_step_str.[[WK:[0-9]+]] = private unnamed_addr constant [3 x i8] c"wk\00"
// CHECK: @rlx_step_bind.[[B:[0-9]+]] = private unnamed_addr constant [3 x %rlx_binding] [%rlx_binding { i32 0, i32 1, i64 [[Q:[0-9]+]], i64 256 }, %rlx_binding { i32 0, i32 1, i64 [[K:[0-9]+]], i64 256 }, %rlx_binding { i32 0, i32 2, i64 0, i64 256 }]
// CHECK: @rlx_step_inputs = constant [2 x %rlx_tensor]
// CHECK: @rlx_step_num_inputs = constant i32 2
// CHECK: @rlx_step_arena_bytes = constant i64 1024

// CHECK-LABEL: define i32 @rlx_step_create(i8* %library, %rlx_context** %out)
// CHECK:  call %rlx_context* @rlx_create(i64 1024, i64 u0x8000, i8* %library)
// CHECK:  call i32 @rlx_kernel(%rlx_context* %0, i32 0, i8* getelementptr ([5 x i8], [5 x i8]* @rlx_step_str.[[EW]], i64 0, i64 0))
// CHECK:  call i32 @rlx_mps_region(%rlx_context* %0, i32 0, {{.*}}, i8* (i8*, i8*, i8*, i8*)* @rlx_build_step_mps0, i32 1,
// CHECK:  call i32 @rlx_mps_region(%rlx_context* %0, i32 1, {{.*}}, i8* (i8*, i8*, i8*, i8*)* @rlx_build_step_mps2, i32 2,

// CHECK-LABEL: define i32 @rlx_step_bind_weights(
// CHECK:  call void @rlx_set_weight_loader(
// CHECK:  call i32 @rlx_bind_weight({{.*}}@rlx_step_str.[[WQ]], i64 0, i64 0), i64 0, i64 u0x4000)
// CHECK:  call i32 @rlx_bind_weight({{.*}}@rlx_step_str.[[WK]], i64 0, i64 0), i64 u0x4000, i64 u0x4000)

// CHECK-LABEL: define i32 @rlx_step_run(%rlx_context* %ctx)
// CHECK:      call i32 @rlx_begin(
// CHECK:      call i32 @rlx_mps(%rlx_context* %ctx, i32 0)
// CHECK:      call i32 @rlx_dispatch(%rlx_context* %ctx, i32 0, i32 1, i32 1, i32 1, i32 32, i32 1, i32 1, i32 0, i32 3, %rlx_binding* getelementptr ([3 x %rlx_binding], [3 x %rlx_binding]* @rlx_step_bind.[[B]], i64 0, i64 0))
// CHECK:      call i32 @rlx_mps(%rlx_context* %ctx, i32 1)
// CHECK:      call i32 @rlx_commit_and_wait(
// CHECK-NOT:  call
// CHECK:      ret i32 0
// CHECK:    fail:
// CHECK-NEXT: phi i32
// CHECK-NOT:  rlx_commit_and_wait

// HDR: /* rlx_step.h: the host module of @step (rlx-translate --mlir-to-llvmir). */
// HDR: #include "rlx_runtime.h"
// HDR: int rlx_step_create(const char *library, rlx_context **out);
// HDR: int rlx_step_bind_weights(rlx_context *ctx, rlx_weight_loader load, void *user);
// HDR: int rlx_step_run(rlx_context *ctx);
// HDR: extern const rlx_tensor rlx_step_inputs[2];

// The new state is copied into its argument's slot at the end, before the
// one wait.
// CARRY-LABEL: define i32 @rlx_step_run(
// CARRY:       call i32 @rlx_mps(%rlx_context* %ctx, i32 1)
// CARRY:       call i32 @rlx_copy(%rlx_context* %ctx, i64 {{[0-9]+}}, i64 256, i64 256)
// CARRY:       call i32 @rlx_commit_and_wait(

// ALIGN: for the --arena-align option: '48' is not a power of two of at least 16
// UNSPLIT: error: 'graph.matmul' op is outside any region; plan a function after hybrid-split
// HOST: error: step 0 (@step_thunk0) runs on the host: a host module sequences Metal and MPS steps only

func.func @step(%x: tensor<1x64xf32> {rlx.name = "x"}, %s: tensor<1x64xf32> {rlx.name = "state"}) -> (tensor<1x64xf32> {rlx.name = "y"}, tensor<1x64xf32> {rlx.name = "state"}) {
  %wq = graph.param "wq" : tensor<64x64xf32>
  %wk = graph.param "wk" : tensor<64x64xf32>
  %q = graph.matmul %x, %wq : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %k = graph.matmul %x, %wk : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %sq = graph.softplus %q : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %m = graph.max %sq, %k : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %n = graph.add %m, %s : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  %y = graph.tanh %n : (tensor<1x64xf32>) -> tensor<1x64xf32>
  return %y, %n : tensor<1x64xf32>, tensor<1x64xf32>
}
