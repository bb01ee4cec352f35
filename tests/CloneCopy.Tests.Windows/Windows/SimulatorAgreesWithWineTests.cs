using System;
using System.Collections.Generic;
using System.IO;
using CloneCopy.Platform.Windows;
using CloneCopy.Tests.Infrastructure;
using Microsoft.Win32.SafeHandles;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The simulated kernel32 (<see cref="SimulatedWindowsSystemCalls"/>) against the real calls Wine implements, asked the
/// same questions about the same real files: share-mode violations, delete-on-close, the streams and extended
/// attributes of a plain file, and the mount point of a path. Where Wine and the simulator agree, the
/// simulator's model of those calls is not only the project's belief. The clone FSCTL itself Wine does not
/// implement, so its rules are checked against Microsoft's documents only (comments in the simulator).
/// </summary>
// Wine's answers, not Windows': left out where the Windows lane runs natively (.ci/windows-steps.yml).
[Trait("Needs", "Wine")]
public sealed class SimulatorAgreesWithWineTests : IDisposable
{
    private const uint Read = Win32.GenericRead;
    private const uint Write = Win32.GenericWrite;
    private const uint ShareR = Win32.FileShareRead;
    private const uint ShareW = Win32.FileShareWrite;
    private const uint ShareD = Win32.FileShareDelete;

    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-agree").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    public static TheoryData<uint, uint, uint, uint> SharePairs => new()
    {
        { Write, ShareR, Read, ShareR | ShareD }, // a writer sharing read; the clone's old source share mode
        { Write, ShareR, Read, ShareR | ShareW | ShareD }, // the same writer; Wine's CopyFile share mode (Windows' CopyFile shares read and delete: the pair above)
        { Read, ShareR, Write, ShareR | ShareW }, // a reader that denies writers
        { Read, ShareR | ShareW, Write, ShareR | ShareW },
        { Read | Write | Win32.Delete, ShareD, Read, ShareR | ShareW | ShareD }, // the clone's old destination
        { Read, ShareR | ShareW | ShareD, Read | Write | Win32.Delete, ShareD },
        { Read | Write | Win32.Delete, 0, Read, ShareR | ShareW | ShareD }, // the clone's new destination, shared with no one
        { Write, ShareR | ShareW, Read, ShareR | ShareD }, // a writer sharing everything but delete; the clone's source denies writers
        { Read, ShareR | ShareD, Write, ShareR | ShareW | ShareD }, // the clone's source, then a writer
        { Win32.FileReadAttributes, 0, Read, ShareR }, // attribute-only access takes no part in sharing
    };

    [Theory]
    [MemberData(nameof(SharePairs))]
    public void A_second_open_is_refused_or_allowed_as_Wine_decides(uint firstAccess, uint firstShare, uint secondAccess, uint secondShare)
    {
        string file = TestFiles.Write(Path.Combine(_directory, "shared.dll"), 100);

        int wine = SecondOpen(WindowsSystemCalls.Instance, file, firstAccess, firstShare, secondAccess, secondShare);
        int simulated = SecondOpen(NewSimulator(), file, firstAccess, firstShare, secondAccess, secondShare);

        Assert.Equal(wine, simulated);
    }

    [Fact]
    public void A_file_marked_delete_on_close_is_gone_when_its_handle_closes_and_a_cleared_mark_keeps_it()
    {
        foreach ((string name, IWindowsSystemCalls kernel) in new (string, IWindowsSystemCalls)[] { ("wine", WindowsSystemCalls.Instance), ("simulated", NewSimulator()) })
        {
            string deleted = Path.Combine(_directory, name + "-deleted.dll");
            string kept = Path.Combine(_directory, name + "-kept.dll");
            foreach (string path in new[] { deleted, kept })
            {
                Assert.Equal(0, kernel.CreateFile(path, Read | Write | Win32.Delete, ShareD, Win32.CreateNew, Win32.FileAttributeNormal, out SafeFileHandle handle));
                Assert.Equal(0, kernel.SetDeleteOnClose(handle, true));
                if (path == kept)
                {
                    Assert.Equal(0, kernel.SetDeleteOnClose(handle, false));
                }

                kernel.CloseHandle(handle);
            }

            Assert.False(File.Exists(deleted), name);
            Assert.True(File.Exists(kept), name);
        }
    }

    [Fact]
    public void While_a_file_marked_for_deletion_is_held_open_elsewhere_its_name_cannot_be_opened_and_it_goes_at_the_last_close()
    {
        var answers = new List<string>();
        foreach ((string name, IWindowsSystemCalls kernel) in new (string, IWindowsSystemCalls)[] { ("wine", WindowsSystemCalls.Instance), ("simulated", NewSimulator()) })
        {
            string path = Path.Combine(_directory, name + "-pending.dll");
            Assert.Equal(0, kernel.CreateFile(path, Read | Write | Win32.Delete, ShareR | ShareD, Win32.CreateNew, Win32.FileAttributeNormal, out SafeFileHandle marker));
            Assert.Equal(0, kernel.CreateFile(path, Read, ShareR | ShareW | ShareD, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle other));
            Assert.Equal(0, kernel.SetDeleteOnClose(marker, true));
            kernel.CloseHandle(marker);
            int reopen = kernel.CreateFile(path, Read, ShareR | ShareW | ShareD, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle again);
            kernel.CloseHandle(again);
            bool presentWhileHeld = File.Exists(path);
            kernel.CloseHandle(other);
            answers.Add($"reopen {reopen}, present while held {presentWhileHeld}, present after {File.Exists(path)}");
        }

        // The file stays while held and goes at the last close, in Wine and in the simulator. A new open of the name
        // meanwhile: Windows fails it with STATUS_DELETE_PENDING (the link is marked deleted, MS-FSA 2.1.5.15.3), which
        // CreateFileW reports as ERROR_ACCESS_DENIED (ASSUMED A8); the simulator does so. Wine 8 lets it open (seen:
        // 0), so that part is not compared.
        Assert.Equal("reopen 0, present while held True, present after False", answers[0]);
        Assert.Equal($"reopen {Win32.ErrorAccessDenied}, present while held True, present after False", answers[1]);
    }

    [Fact]
    public void A_POSIX_delete_frees_the_name_when_the_marking_handle_closes_where_Wine_implements_it()
    {
        // WDK FILE_DISPOSITION_INFORMATION_EX: with FILE_DISPOSITION_POSIX_SEMANTICS "the link is removed from the
        // visible namespace as soon as the POSIX delete handle has been closed". The simulator models that for a
        // volume reporting FILE_SUPPORTS_POSIX_UNLINK_RENAME; Wine 8's answer is recorded, and compared only where
        // it accepts the call.
        var answers = new List<string>();
        foreach ((string name, IWindowsSystemCalls kernel) in new (string, IWindowsSystemCalls)[] { ("wine", WindowsSystemCalls.Instance), ("simulated", NewSimulator()) })
        {
            string path = Path.Combine(_directory, name + "-posix.dll");
            Assert.Equal(0, kernel.CreateFile(path, Read | Write | Win32.Delete, ShareR | ShareD, Win32.CreateNew, Win32.FileAttributeNormal, out SafeFileHandle marker));
            Assert.Equal(0, kernel.CreateFile(path, Read, ShareR | ShareW | ShareD, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle other));
            int marked = kernel.SetDispositionEx(marker, Win32.FileDispositionFlagDelete | Win32.FileDispositionFlagPosixSemantics | Win32.FileDispositionFlagIgnoreReadOnlyAttribute);
            kernel.CloseHandle(marker);
            int recreate = kernel.CreateFile(path, Read | Write, 0, Win32.CreateNew, Win32.FileAttributeNormal, out SafeFileHandle again);
            kernel.CloseHandle(again);
            kernel.CloseHandle(other);
            answers.Add($"mark {marked}, create again {recreate}");
        }

        Console.WriteLine($"POSIX delete: wine: {answers[0]}; simulated: {answers[1]}");
        Assert.Equal("mark 0, create again 0", answers[1]);
        if (answers[0].StartsWith("mark 0,", StringComparison.Ordinal))
        {
            Assert.Equal(answers[1], answers[0]);
        }
    }

    [Fact]
    public void A_plain_file_has_no_named_streams_and_its_FileAllInformation_agrees_with_the_simulator()
    {
        string file = TestFiles.Write(Path.Combine(_directory, "plain.dll"), 100);
        var answers = new List<(int Streams, string[] Names, int All, string Information)>();
        foreach (IWindowsSystemCalls kernel in new IWindowsSystemCalls[] { WindowsSystemCalls.Instance, NewSimulator() })
        {
            Assert.Equal(0, kernel.CreateFile(file, Read, ShareR, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle handle));
            int streams = kernel.GetStreamNames(handle, out string[] names);
            int all = kernel.QueryAllInformation(handle, out Win32FileAllInformation information);
            kernel.CloseHandle(handle);
            answers.Add((streams, names, all, $"end of file {information.EndOfFile}, links {information.NumberOfLinks}, EaSize {information.ExtendedAttributesSize}, "
                + $"last write {DateTime.FromFileTimeUtc(information.Times.LastWriteTime):O}, change time set {information.Times.ChangeTime > 0}, read-only {(information.Attributes & Win32.FileAttributeReadOnly) != 0}"));
        }

        // Wine 8 does not implement FileStreamInfo (ERROR_INVALID_FUNCTION, as a filesystem without stream
        // enumeration answers); the simulator answers as NTFS and ReFS do. FileAllInformation Wine implements: the
        // fields the cloner reads agree (the allocation size and the index are the file system's own).
        Assert.Equal((Win32.ErrorInvalidFunction, 0), (answers[0].Streams, answers[0].Names.Length));
        Assert.Equal((0, "::$DATA"), (answers[1].Streams, string.Join(",", answers[1].Names)));
        Assert.Equal((0, answers[0].Information), (answers[0].All, answers[1].Information));
        Assert.StartsWith($"end of file 100, links 1, EaSize 0, last write {File.GetLastWriteTimeUtc(file):O}, change time set True", answers[0].Information, StringComparison.Ordinal);
    }

    [Fact]
    public void The_mount_point_of_a_path_is_the_longest_prefix_that_is_a_volume()
    {
        string file = Path.Combine(_directory, "a.dll");
        var answers = new List<string>();
        foreach (IWindowsSystemCalls kernel in new IWindowsSystemCalls[] { WindowsSystemCalls.Instance, NewSimulator() })
        {
            int error = kernel.GetVolumePathName(file, out string volumePath);
            answers.Add($"{error} {volumePath}");
        }

        Assert.Equal(answers[0], answers[1]);
    }

    /// <summary>Wine's drives as the simulator knows volumes: C: (the prefix) and Z: (the host's root).</summary>
    private static SimulatedWindowsSystemCalls NewSimulator()
    {
        var kernel = new SimulatedWindowsSystemCalls();
        kernel.AddVolume(@"C:\", @"\\?\Volume{00000000-0000-0000-0000-000000000043}\", "NTFS", blockRefcounting: false);
        kernel.AddVolume(@"Z:\", @"\\?\Volume{00000000-0000-0000-0000-00000000005a}\", "NTFS", blockRefcounting: false);
        return kernel;
    }

    private static int SecondOpen(IWindowsSystemCalls kernel, string file, uint firstAccess, uint firstShare, uint secondAccess, uint secondShare)
    {
        Assert.Equal(0, kernel.CreateFile(file, firstAccess, firstShare, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle first));
        try
        {
            int error = kernel.CreateFile(file, secondAccess, secondShare, Win32.OpenExisting, Win32.FileAttributeNormal, out SafeFileHandle second);
            kernel.CloseHandle(second);
            return error;
        }
        finally
        {
            kernel.CloseHandle(first);
        }
    }
}
