using System.IO;
using System.Threading;
using CloneCopy.Engine;
using Xunit;

namespace CloneCopy.Tests.Engine;

/// <summary>
/// The clone-or-File.Copy chain of Windows and macOS with a source whose size says 0 but which holds bytes (a /proc
/// file here; a named pipe on macOS): File.Copy reads it to its end, and the log must say what it really wrote, as the
/// Linux engine does, not "0 bytes, empty file", which would also keep it out of the guard's count.
/// </summary>
public sealed class ClonerTransferSizeZeroTests : System.IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("clonecopy-size0").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void A_source_whose_size_says_0_is_reported_with_the_bytes_File_Copy_read_from_it()
    {
        const string source = "/proc/sys/kernel/ostype";
        Assert.Equal(0, new FileInfo(source).Length);
        string destination = Path.Combine(_directory, "ostype");
        var transfer = new ClonerTransfer(() => new FakeFileCloner(), new EngineDiagnostics());

        TransferResult result = transfer.Transfer(source, destination, CancellationToken.None);

        Assert.Equal("Linux\n", File.ReadAllText(destination));
        Assert.Equal((TransferMethod.Copied, NotClonedReason.SizeNotKnownInAdvance, 6L), (result.Method, result.Reason, result.Bytes));
    }

    [Fact]
    public void An_empty_file_is_still_reported_as_empty()
    {
        string source = Path.Combine(_directory, "empty");
        File.WriteAllBytes(source, []);
        var transfer = new ClonerTransfer(() => new FakeFileCloner(), new EngineDiagnostics());

        TransferResult result = transfer.Transfer(source, Path.Combine(_directory, "copy"), CancellationToken.None);

        Assert.Equal((TransferMethod.Copied, NotClonedReason.EmptyFile, 0L), (result.Method, result.Reason, result.Bytes));
    }
}
