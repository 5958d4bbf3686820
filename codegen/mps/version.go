package mps

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a macOS version, major.minor.
type Version struct{ Major, Minor int }

// MinVersion is the oldest macOS the builders can target: MPSGraph's
// castTensor:toType:name:, broadcastTensor:toShape:name: and
// MPSDataTypeBool, which every lowered region may use, arrived in
// macOS 12.0.
var MinVersion = Version{12, 0}

// DefaultVersion is the deployment target when none is given.
var DefaultVersion = Version{14, 0}

// ParseVersion reads "14", "14.0" or "15.2": a macOS version of at least
// MinVersion.
func ParseVersion(s string) (Version, error) {
	v, ok := readVersion(s)
	if !ok {
		return Version{}, fmt.Errorf("'%s' is not a macOS version such as 14.0", s)
	}
	if v.Less(MinVersion) {
		return Version{}, fmt.Errorf("macOS %s is older than %s, the oldest the MPSGraph builders support", v, MinVersion)
	}
	return v, nil
}

// readVersion reads major[.minor].
func readVersion(s string) (Version, bool) {
	maj, min, found := strings.Cut(s, ".")
	var v Version
	var err error
	if v.Major, err = strconv.Atoi(maj); err != nil || v.Major < 0 {
		return Version{}, false
	}
	if found {
		if v.Minor, err = strconv.Atoi(min); err != nil || v.Minor < 0 {
			return Version{}, false
		}
	}
	return v, true
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool {
	return v.Major < w.Major || v.Major == w.Major && v.Minor < w.Minor
}

// String returns "14.0".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }
