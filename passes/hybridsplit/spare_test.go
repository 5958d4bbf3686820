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
		t.Errorf("%d arrays left, want 0 (put must skip nil)", len(s.free))
	}
	if c := s.get(9); &c[0] == &big[0] || len(c) != 9 {
		t.Errorf("get(9) reused an array given out before")
	}
}
