using System;
using System.Collections.Generic;
using System.Text;

namespace CloneCopy.Platform.Windows;

/// <summary>
/// The names in NtQueryEaFile's reply: FILE_FULL_EA_INFORMATION entries (MS-FSCC 2.4.15: NextEntryOffset (4), Flags (1),
/// EaNameLength (1), EaValueLength (2), then the name (8-bit characters), its NUL, and the value), chained by
/// NextEntryOffset, 0 for the last. Apart from the call so that tests can give it any bytes.
/// </summary>
internal static class ExtendedAttributeReply
{
    private const int Header = 8;

    /// <summary>
    /// 0 with the names in the first <paramref name="length"/> bytes of <paramref name="reply"/>; ERROR_INVALID_DATA (no
    /// names) when an entry's header, name, NUL or value runs past them, or its NextEntryOffset is not 4-byte aligned
    /// (MS-FSCC 2.4.15: entries are aligned), falls inside the entry or points past the reply. Nothing past
    /// <paramref name="length"/> is read.
    /// </summary>
    public static int Names(byte[] reply, int length, out string[] names)
    {
        names = Array.Empty<string>();
        length = Math.Min(length, reply.Length);
        var found = new List<string>();
        int offset = 0;
        while (true)
        {
            if (offset < 0 || offset > length - Header)
            {
                return Win32.ErrorInvalidData;
            }

            int next = BitConverter.ToInt32(reply, offset);
            int nameLength = reply[offset + 5];
            int valueLength = BitConverter.ToUInt16(reply, offset + 6);
            int entry = Header + nameLength + 1 + valueLength;
            if (entry > length - offset || next < 0 || (next != 0 && (next % 4 != 0 || next < entry || next > length - offset)))
            {
                return Win32.ErrorInvalidData;
            }

            found.Add(Encoding.ASCII.GetString(reply, offset + Header, nameLength));
            if (next == 0)
            {
                names = found.ToArray();
                return 0;
            }

            offset += next;
        }
    }
}
