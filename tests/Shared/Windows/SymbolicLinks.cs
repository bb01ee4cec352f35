using System;
using CloneCopy.Tests.Infrastructure;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// For tests that need real symbolic links on Windows, where making one may do nothing (Wine 8's CreateSymbolicLinkW
/// reports success and creates nothing) or be refused (Windows without the privilege or Developer Mode): those tests
/// skip where the probe (<see cref="CapabilityProbe.SymbolicLinks"/>) finds no links (declared on the attribute: a
/// skip thrown from inside a test has left the next test crashing under Wine).
/// </summary>
public static class SymbolicLinks
{
    public const string NoneMadeHere = "CreateSymbolicLinkW makes no working link here (CapabilityProbe.SymbolicLinks)";

    /// <summary>
    /// On Windows (or Wine) where the probe made no link. Never under CI=true: the lanes leave these tests out by their
    /// trait (Needs=SymbolicLinks) when the probe says so, and a run under CI that does not must fail rather than skip them.
    /// </summary>
    public static bool Unavailable => OperatingSystem.IsWindows()
        && !string.Equals(Environment.GetEnvironmentVariable("CI"), "true", StringComparison.OrdinalIgnoreCase)
        && !CapabilityProbe.SymbolicLinks.Available;
}
