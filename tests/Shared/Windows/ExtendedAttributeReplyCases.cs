using System;
using System.Text;
using CloneCopy.Platform.Windows;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The parser of NtQueryEaFile's reply (FILE_FULL_EA_INFORMATION, MS-FSCC 2.4.15). It has not run on a real Windows, so,
/// as the stream parser does, it checks every offset and length against the bytes the call returned: a reply that does
/// not parse is ERROR_INVALID_DATA (the file is then left to CopyFile), never an exception or a read past the reply.
/// </summary>
public abstract class ExtendedAttributeReplyCases
{
    [Fact]
    public void Two_entries_give_two_names()
    {
        byte[] reply = Reply(("$KERNEL.PURGE.ESBCACHE", 12, true), ("user.note", 3, false));

        Assert.Equal(0, ExtendedAttributeReply.Names(reply, reply.Length, out string[] names));
        Assert.Equal(new[] { "$KERNEL.PURGE.ESBCACHE", "user.note" }, names);
    }

    [Theory]
    [InlineData("name past the reply")]
    [InlineData("value past the reply")]
    [InlineData("next entry past the reply")]
    [InlineData("next entry inside the header")]
    [InlineData("next entry not aligned")]
    [InlineData("reply shorter than a header")]
    public void A_reply_that_does_not_parse_is_ERROR_INVALID_DATA(string fault)
    {
        byte[] reply = Reply(("user.a", 4, true), ("user.b", 4, false));
        int length = reply.Length;
        switch (fault)
        {
            case "name past the reply":
                reply[Entry(reply, 1) + 5] = 200;
                break;
            case "value past the reply":
                BitConverter.GetBytes((ushort)5000).CopyTo(reply, Entry(reply, 1) + 6);
                break;
            case "next entry past the reply":
                BitConverter.GetBytes(reply.Length + 64).CopyTo(reply, 0);
                break;
            case "next entry inside the header":
                BitConverter.GetBytes(4).CopyTo(reply, 0);
                break;
            case "next entry not aligned":
                BitConverter.GetBytes(BitConverter.ToInt32(reply, 0) + 1).CopyTo(reply, 0);
                break;
            case "reply shorter than a header":
                length = 5;
                break;
        }

        Assert.Equal(Win32.ErrorInvalidData, ExtendedAttributeReply.Names(reply, length, out string[] names));
        Assert.Empty(names);
    }

    /// <summary>Entries as NtQueryEaFile writes them, each 4-byte aligned; NextEntryOffset 0 on the last.</summary>
    private static byte[] Reply(params (string Name, int ValueLength, bool More)[] entries)
    {
        var bytes = new System.Collections.Generic.List<byte>();
        foreach ((string name, int valueLength, bool more) in entries)
        {
            int size = 8 + name.Length + 1 + valueLength;
            int aligned = (size + 3) / 4 * 4;
            var entry = new byte[more ? aligned : size];
            BitConverter.GetBytes(more ? aligned : 0).CopyTo(entry, 0);
            entry[5] = (byte)name.Length;
            BitConverter.GetBytes((ushort)valueLength).CopyTo(entry, 6);
            Encoding.ASCII.GetBytes(name).CopyTo(entry, 8);
            bytes.AddRange(entry);
        }

        return bytes.ToArray();
    }

    /// <summary>Where entry <paramref name="index"/> starts.</summary>
    private static int Entry(byte[] reply, int index)
    {
        int offset = 0;
        for (int i = 0; i < index; i++)
        {
            offset += BitConverter.ToInt32(reply, offset);
        }

        return offset;
    }
}
