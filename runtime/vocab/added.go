package vocab

import "unicode/utf8"

// addedSet holds added tokens in a trie of their bytes, so that
// splitting a text walks at each byte only as far as some token's
// prefix goes.
type addedSet struct {
	nodes []addedNode // nodes[0] is the root, once a token is added
}

type addedNode struct {
	next map[byte]int32
	id   int // the token that ends here, or -1
}

// add adds a token; of two with the same text the first stays, and one
// of no text is never matched, so not kept.
func (s *addedSet) add(a added) {
	if a.text == "" {
		return
	}
	if s.nodes == nil {
		s.nodes = []addedNode{{id: -1}}
	}
	n := 0
	for i := 0; i < len(a.text); i++ {
		c := a.text[i]
		next, ok := s.nodes[n].next[c]
		if !ok {
			if s.nodes[n].next == nil {
				s.nodes[n].next = map[byte]int32{}
			}
			next = int32(len(s.nodes))
			s.nodes[n].next[c] = next
			s.nodes = append(s.nodes, addedNode{id: -1})
		}
		n = int(next)
	}
	if s.nodes[n].id < 0 {
		s.nodes[n].id = a.id
	}
}

// longest returns the id and length of the longest token text starts
// with, or -1 and 0.
func (s *addedSet) longest(text string) (id, size int) {
	id = -1
	if s.nodes == nil {
		return id, 0
	}
	n := 0
	for i := 0; i < len(text); i++ {
		next, ok := s.nodes[n].next[text[i]]
		if !ok {
			break
		}
		n = int(next)
		if s.nodes[n].id >= 0 {
			id, size = s.nodes[n].id, i+1
		}
	}
	return id, size
}

// split splits text at the added tokens, leftmost-longest.
func (s *addedSet) split(text string) []segment {
	if text == "" {
		return nil
	}
	var out []segment
	start := 0
	for i := 0; i < len(text); {
		id, size := s.longest(text[i:])
		if id < 0 {
			_, n := utf8.DecodeRuneInString(text[i:])
			i += n
			continue
		}
		if i > start {
			out = append(out, segment{text[start:i], -1})
		}
		out = append(out, segment{text[i : i+size], id})
		i += size
		start = i
	}
	if start < len(text) {
		out = append(out, segment{text[start:], -1})
	}
	return out
}

type segment struct {
	text string
	id   int // an added token's id, or -1 for text
}

type added struct {
	text string
	id   int
}
