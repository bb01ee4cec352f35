using System;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// For tests that need real symbolic links: Wine 8's CreateSymbolicLinkW is a stub that reports success
/// and creates nothing, so those tests skip in the Wine lane (declared on the attribute: a skip thrown from
/// inside a test has left the next test crashing under Wine).
/// </summary>
public static class SymbolicLinks
{
    public const string WineCannotMakeThem = "Wine 8's CreateSymbolicLinkW is a stub that creates nothing";

    /// <summary>
    /// On Windows (Wine). Never under CI=true: the Wine lane leaves these tests out by their trait (Needs=SymbolicLinks),
    /// and a run under CI that does not must fail rather than skip them.
    /// </summary>
    public static bool Unavailable => OperatingSystem.IsWindows()
        && !string.Equals(Environment.GetEnvironmentVariable("CI"), "true", StringComparison.OrdinalIgnoreCase);
}
