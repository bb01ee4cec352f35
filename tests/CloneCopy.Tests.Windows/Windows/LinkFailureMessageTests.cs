using System;
using System.IO;
using System.Runtime.InteropServices;
using CloneCopy.Platform;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// MSB3891/MSB3892 carry the reason a link could not be made. MSBuild words it with
/// Marshal.GetExceptionForHR(Marshal.GetHRForLastWin32Error()).Message (its NativeMethods.MakeHardLink and
/// MakeSymbolicLink), not with Win32Exception's text: CloneCopy must give the same words. The case users meet
/// (package cache on C:, repository on D:, ERROR_NOT_SAME_DEVICE) cannot be made under Wine, whose drives C:
/// and Z: lie on one host filesystem and link to each other; a name that already exists
/// (ERROR_ALREADY_EXISTS) goes through the same wording.
/// </summary>
// Wine's answers, not Windows': left out where the Windows lane runs natively (.ci/windows-steps.yml).
[Trait("Needs", "Wine")]
public sealed class LinkFailureMessageTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-linkmsg").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_hard_link_that_cannot_be_made_fails_with_the_words_MSBuild_uses()
    {
        string cached = TestFiles.Write(Path.Combine(_directory, "pkg.dll"), 100, seed: 1);
        string taken = TestFiles.Write(Path.Combine(_directory, "taken.dll"), 100, seed: 2);

        bool made = PlatformFactory.Current.TryCreateHardLink(cached, taken, out string error);

        Assert.False(made);
        const int AlreadyExists = unchecked((int)0x800700B7); // HRESULT_FROM_WIN32(ERROR_ALREADY_EXISTS)
        // The HRESULT's own text, not a COM error object some earlier failure left on this thread (IntPtr -1).
        Assert.Equal(Marshal.GetExceptionForHR(AlreadyExists, new IntPtr(-1))!.Message, error);
        Assert.EndsWith("(0x800700B7)", error);
    }
}
