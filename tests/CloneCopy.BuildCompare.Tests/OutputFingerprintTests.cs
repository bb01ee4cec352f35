using System.IO;
using CloneCopy.BuildCompare;
using Xunit;

namespace CloneCopy.BuildCompare.Tests;

public sealed class OutputFingerprintTests
{
    [Fact]
    public void Files_missing_on_one_side_and_different_bytes_are_named()
    {
        string a = Directory.CreateTempSubdirectory("fingerprint").FullName;
        string b = Directory.CreateTempSubdirectory("fingerprint").FullName;
        File.WriteAllText(Path.Combine(a, "same.dll"), "same");
        File.WriteAllText(Path.Combine(b, "same.dll"), "same");
        File.WriteAllText(Path.Combine(a, "changed.dll"), "one");
        File.WriteAllText(Path.Combine(b, "changed.dll"), "two");
        File.WriteAllText(Path.Combine(a, "extra.txt"), "x");

        var first = OutputFingerprint.Of(a, Directory.GetFiles(a));
        var second = OutputFingerprint.Of(b, Directory.GetFiles(b));

        Assert.Equal(["changed.dll: bytes differ", "extra.txt: only in the first"], first.Differences(second));
        Assert.Empty(first.Differences(first));
        Directory.Delete(a, recursive: true);
        Directory.Delete(b, recursive: true);
    }
}
