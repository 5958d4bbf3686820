package hybridsplit

import "testing"

func TestSpare(t *testing.T) {
	var s spare
	if a := s.get(3); len(a) != 3 {
		t.Fatalf("get(3) from an empty spare: len %d", len(a))
	}
	small, big := []int32{1, 2, 3, 4}, []int32{5, 6, 7, 8, 9, 10, 11, 12}
	s.put(big, small, nil)
	a := s.get(3)
	if &a[0] != &small[0] {
		t.Errorf("get(3) did not take the smallest array large enough")
	}
	for i, v := range a {
		if v != 0 {
			t.Errorf("get(3)[%d] = %d, want a zeroed array", i, v)
		}
	}
	b := s.get(6)
	if &b[0] != &big[0] || len(b) != 6 {
		t.Errorf("get(6) did not reuse the 8-entry array (len %d)", len(b))
	}
	if len(s.free) != 0 {
		t.Errorf("%d arrays left, want 0 (put must skip nil; rests under minSpare are dropped)", len(s.free))
	}
	if c := s.get(9); &c[0] == &big[0] || len(c) != 9 {
		t.Errorf("get(9) reused an array given out before")
	}

	// A large array is shared out front to back; appending to a part
	// must not run into the next one.
	whole := make([]int32, 3*minSpare)
	s.put(whole)
	x, y := s.get(minSpare), s.get(minSpare)
	if &x[0] != &whole[0] || &y[0] != &whole[minSpare] || cap(x) != minSpare {
		t.Errorf("get did not split the spare array: x at %p cap %d, y at %p", &x[0], cap(x), &y[0])
	}
	x = append(x, 7)
	if y[0] != 0 || &x[0] == &whole[0] {
		t.Errorf("appending to one part wrote into the next")
	}
	if z := s.get(minSpare); &z[0] != &whole[2*minSpare] || len(s.free) != 0 {
		t.Errorf("the last part was not handed out whole")
	}
}
