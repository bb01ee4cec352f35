using System.IO;

namespace CloneCopy.Benchmarks;

/// <summary>The baseline with no cloning at all: a plain read/write loop through a 1 MiB buffer.</summary>
public static class BufferedCopy
{
    private static readonly byte[] Buffer = new byte[1024 * 1024];

    public static void Copy(string source, string destination)
    {
        using var from = new FileStream(source, FileMode.Open, FileAccess.Read, FileShare.Read, 1);
        using var to = new FileStream(destination, FileMode.Create, FileAccess.Write, FileShare.None, 1);
        int read;
        while ((read = from.Read(Buffer, 0, Buffer.Length)) > 0)
        {
            to.Write(Buffer, 0, read);
        }
    }
}
