//go:build !unix

package asm

func mapFile(string) (*Source, bool) { return nil, false }
