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

    public static bool Unavailable => OperatingSystem.IsWindows();
}
