nn.global @w size(1024) seed(7) scale(0.1)
nn.global @d size(8) data(dense<[1.0, 2.0]> : tensor<2xf32>)
func.func @main(%x: tensor<1x4x8x8xf32>, %mode: tensor<1xf32>) -> tensor<1x4x8x8xf32> {
  %b = nn.get_global @w : tensor<1024xi8>
  %k = nn.view %b[0] bytes(576) : tensor<1024xi8> to tensor<4x4x3x3xf32>
  %y = nn.conv2d %x, %k {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %y2 = nn.conv2d %x, %k {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %half = nn.constant dense<0.5> : tensor<1xf32>
  %c = nn.cmp %mode, %half {predicate = "gt"} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
  %r = nn.if %c : tensor<1xi1> -> (tensor<1x4x8x8xf32>) {
    %t = nn.relu %y : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    nn.yield %t : tensor<1x4x8x8xf32>
  } else {
    nn.yield %y2 : tensor<1x4x8x8xf32>
  }
  func.return %r : tensor<1x4x8x8xf32>
}
