package cel

import (
	"fmt"
	"math"
	"net/netip"
	"net/url"
	"reflect"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// The url (all releases), ip and cidr (1.30 and later) libraries of the
// API server's base environment.

var (
	// URLType is the CEL type of url() values.
	URLType = cel.ObjectType("kubernetes.URL")
	// IPType is the CEL type of ip() values.
	IPType = cel.OpaqueType("net.IP")
	// CIDRType is the CEL type of cidr() values.
	CIDRType = cel.OpaqueType("net.CIDR")
)

// URL is a parsed URL as a CEL value.
type URL struct{ *url.URL }

func (u URL) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(u.URL).AssignableTo(typeDesc) {
		return u.URL, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return u.URL.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'URL' to '%v'", typeDesc)
}

func (u URL) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case URLType:
		return u
	case types.TypeType:
		return URLType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", URLType, typeVal)
}

func (u URL) Equal(other ref.Val) ref.Val {
	o, ok := other.(URL)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(*u.URL == *o.URL)
}

func (u URL) Type() ref.Type { return URLType }
func (u URL) Value() any     { return u.URL }

// IP is an IP address as a CEL value.
type IP struct{ netip.Addr }

func (ip IP) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(ip.Addr).AssignableTo(typeDesc) {
		return ip.Addr, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return ip.Addr.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'IP' to '%v'", typeDesc)
}

func (ip IP) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case IPType:
		return ip
	case types.TypeType:
		return IPType
	case types.StringType:
		return types.String(ip.Addr.String())
	}
	return types.NewErr("type conversion error from '%s' to '%s'", IPType, typeVal)
}

func (ip IP) Equal(other ref.Val) ref.Val {
	o, ok := other.(IP)
	if !ok {
		return types.ValOrErr(other, "no such overload")
	}
	return types.Bool(ip.Addr == o.Addr)
}

func (ip IP) Type() ref.Type { return IPType }
func (ip IP) Value() any     { return ip.Addr }

// Size is the address length in bytes.
func (ip IP) Size() ref.Val { return types.Int(int(math.Ceil(float64(ip.Addr.BitLen()) / 8))) }

// CIDR is an IP prefix as a CEL value.
type CIDR struct{ netip.Prefix }

func (c CIDR) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(c.Prefix).AssignableTo(typeDesc) {
		return c.Prefix, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return c.Prefix.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'CIDR' to '%v'", typeDesc)
}

func (c CIDR) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case CIDRType:
		return c
	case types.TypeType:
		return CIDRType
	case types.StringType:
		return types.String(c.Prefix.String())
	}
	return types.NewErr("type conversion error from '%s' to '%s'", CIDRType, typeVal)
}

func (c CIDR) Equal(other ref.Val) ref.Val {
	o, ok := other.(CIDR)
	if !ok {
		return types.ValOrErr(other, "no such overload")
	}
	return types.Bool(c.Prefix == o.Prefix)
}

func (c CIDR) Type() ref.Type { return CIDRType }
func (c CIDR) Value() any     { return c.Prefix }

// urlLibrary: url(), isURL() and the members getScheme, getHost,
// getHostname, getPort, getEscapedPath, getQuery. Only absolute URLs and
// absolute paths are URLs (url.ParseRequestURI).
type urlLibrary struct{}

func (urlLibrary) LibraryName() string { return "k8s.urls" }

func (urlLibrary) CompileOptions() []cel.EnvOption {
	member := func(name, id string, result *cel.Type, get func(*url.URL) ref.Val) cel.EnvOption {
		return cel.Function(name, cel.MemberOverload(id, []*cel.Type{URLType}, result, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			u, ok := arg.Value().(*url.URL)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			return get(u)
		})))
	}
	return []cel.EnvOption{
		cel.Function("url", cel.Overload("string_to_url", []*cel.Type{cel.StringType}, URLType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			if _, err := url.ParseRequestURI(s); err != nil {
				return types.NewErr("URL parse error during conversion from string: %v", err)
			}
			u, err := url.Parse(s)
			if err != nil {
				return types.NewErr("URL parse error during conversion from string: %v", err)
			}
			return URL{u}
		}))),
		cel.Function("isURL", cel.Overload("is_url_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			_, err := url.ParseRequestURI(s)
			return types.Bool(err == nil)
		}))),
		member("getScheme", "url_get_scheme", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.Scheme) }),
		member("getHost", "url_get_host", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.Host) }),
		member("getHostname", "url_get_hostname", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.Hostname()) }),
		member("getPort", "url_get_port", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.Port()) }),
		member("getEscapedPath", "url_get_escaped_path", cel.StringType, func(u *url.URL) ref.Val { return types.String(u.EscapedPath()) }),
		member("getQuery", "url_get_query", cel.MapType(cel.StringType, cel.ListType(cel.StringType)), func(u *url.URL) ref.Val {
			m := map[ref.Val]ref.Val{}
			for k, v := range u.Query() {
				m[types.String(k)] = types.NewStringList(types.DefaultTypeAdapter, v)
			}
			return types.NewRefValMap(types.DefaultTypeAdapter, m)
		}),
	}
}

func (urlLibrary) ProgramOptions() []cel.ProgramOption { return nil }

// parseIP accepts what the API server's ip() accepts: no zones, no
// IPv4-mapped IPv6 addresses.
func parseIP(s string) (netip.Addr, error) {
	addr, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("IP Address %q parse error during conversion from string: %v", s, err)
	}
	if addr.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("IP address %q with zone value is not allowed", s)
	}
	if addr.Is4In6() {
		return netip.Addr{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return addr, nil
}

func parseCIDR(s string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("network address parse error during conversion from string: %v", err)
	}
	if p.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return p, nil
}

func stringToIP(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	addr, err := parseIP(s)
	if err != nil {
		return types.NewErr("%v", err)
	}
	return IP{addr}
}

func stringToCIDR(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	p, err := parseCIDR(s)
	if err != nil {
		return types.NewErr("network address parse error during conversion from string: %v", err)
	}
	return CIDR{p}
}

// ipLibrary: ip(), isIP(), ip.isCanonical(), string(ip) and the members
// family, isUnspecified, isLoopback, isLinkLocalMulticast,
// isLinkLocalUnicast, isGlobalUnicast.
type ipLibrary struct{}

func (ipLibrary) LibraryName() string { return "net.ip" }

func (ipLibrary) CompileOptions() []cel.EnvOption {
	test := func(name, id string, f func(netip.Addr) bool) cel.EnvOption {
		return cel.Function(name, cel.MemberOverload(id, []*cel.Type{IPType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			ip, ok := arg.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			return types.Bool(f(ip.Addr))
		})))
	}
	return []cel.EnvOption{
		cel.Types(IPType),
		cel.Variable(IPType.TypeName(), types.NewTypeTypeWithParam(IPType)),
		cel.Function("ip", cel.Overload("string_to_ip", []*cel.Type{cel.StringType}, IPType, cel.UnaryBinding(stringToIP))),
		cel.Function("family", cel.MemberOverload("ip_family", []*cel.Type{IPType}, cel.IntType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			ip, ok := arg.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			switch {
			case ip.Addr.Is4():
				return types.Int(4)
			case ip.Addr.Is6():
				return types.Int(6)
			}
			return types.NewErr("IP address %q is not an IPv4 or IPv6 address", ip.Addr.String())
		}))),
		cel.Function("ip.isCanonical", cel.Overload("ip_is_canonical", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			addr, err := parseIP(s)
			if err != nil {
				return types.NewErr("%v", err)
			}
			return types.Bool(addr.String() == s)
		}))),
		test("isUnspecified", "ip_is_unspecified", netip.Addr.IsUnspecified),
		test("isLoopback", "ip_is_loopback", netip.Addr.IsLoopback),
		test("isLinkLocalMulticast", "ip_is_link_local_multicast", netip.Addr.IsLinkLocalMulticast),
		test("isLinkLocalUnicast", "ip_is_link_local_unicast", netip.Addr.IsLinkLocalUnicast),
		test("isGlobalUnicast", "ip_is_global_unicast", netip.Addr.IsGlobalUnicast),
		cel.Function("isIP", cel.Overload("is_ip", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			_, err := parseIP(s)
			return types.Bool(err == nil)
		}))),
		cel.Function("string", cel.Overload("ip_to_string", []*cel.Type{IPType}, cel.StringType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			ip, ok := arg.(IP)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			return types.String(ip.Addr.String())
		}))),
	}
}

func (ipLibrary) ProgramOptions() []cel.ProgramOption { return nil }

// cidrLibrary: cidr(), isCIDR(), string(cidr) and the members containsIP,
// containsCIDR, ip, prefixLength, masked.
type cidrLibrary struct{}

func (cidrLibrary) LibraryName() string { return "net.cidr" }

func (cidrLibrary) CompileOptions() []cel.EnvOption {
	containsIP := func(c, other ref.Val) ref.Val {
		p, ok := c.(CIDR)
		if !ok {
			return types.MaybeNoSuchOverloadErr(c)
		}
		ip, ok := other.(IP)
		if !ok {
			return types.MaybeNoSuchOverloadErr(other)
		}
		return types.Bool(p.Contains(ip.Addr))
	}
	containsCIDR := func(c, other ref.Val) ref.Val {
		p, ok := c.(CIDR)
		if !ok {
			return types.MaybeNoSuchOverloadErr(c)
		}
		q, ok := other.(CIDR)
		if !ok {
			return types.MaybeNoSuchOverloadErr(other)
		}
		sameNetwork := p.Prefix.Masked() == netip.PrefixFrom(q.Prefix.Addr(), p.Prefix.Bits()).Masked()
		return types.Bool(sameNetwork && p.Prefix.Bits() <= q.Prefix.Bits())
	}
	unary := func(f func(CIDR) ref.Val) cel.OverloadOpt {
		return cel.UnaryBinding(func(arg ref.Val) ref.Val {
			c, ok := arg.(CIDR)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			return f(c)
		})
	}
	return []cel.EnvOption{
		cel.Types(CIDRType),
		cel.Variable(CIDRType.TypeName(), types.NewTypeTypeWithParam(CIDRType)),
		cel.Function("cidr", cel.Overload("string_to_cidr", []*cel.Type{cel.StringType}, CIDRType, cel.UnaryBinding(stringToCIDR))),
		cel.Function("containsIP",
			cel.MemberOverload("cidr_contains_ip_string", []*cel.Type{CIDRType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return containsIP(c, stringToIP(s)) })),
			cel.MemberOverload("cidr_contains_ip_ip", []*cel.Type{CIDRType, IPType}, cel.BoolType, cel.BinaryBinding(containsIP))),
		cel.Function("containsCIDR",
			cel.MemberOverload("cidr_contains_cidr_string", []*cel.Type{CIDRType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return containsCIDR(c, stringToCIDR(s)) })),
			cel.MemberOverload("cidr_contains_cidr", []*cel.Type{CIDRType, CIDRType}, cel.BoolType, cel.BinaryBinding(containsCIDR))),
		cel.Function("ip", cel.MemberOverload("cidr_ip", []*cel.Type{CIDRType}, IPType, unary(func(c CIDR) ref.Val { return IP{c.Prefix.Addr()} }))),
		cel.Function("prefixLength", cel.MemberOverload("cidr_prefix_length", []*cel.Type{CIDRType}, cel.IntType, unary(func(c CIDR) ref.Val { return types.Int(c.Prefix.Bits()) }))),
		cel.Function("masked", cel.MemberOverload("cidr_masked", []*cel.Type{CIDRType}, CIDRType, unary(func(c CIDR) ref.Val { return CIDR{c.Prefix.Masked()} }))),
		cel.Function("isCIDR", cel.Overload("is_cidr", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(arg ref.Val) ref.Val {
			s, ok := arg.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(arg)
			}
			_, err := parseCIDR(s)
			return types.Bool(err == nil)
		}))),
		cel.Function("string", cel.Overload("cidr_to_string", []*cel.Type{CIDRType}, cel.StringType, unary(func(c CIDR) ref.Val { return types.String(c.Prefix.String()) }))),
	}
}

func (cidrLibrary) ProgramOptions() []cel.ProgramOption { return nil }
