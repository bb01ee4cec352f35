#if NET
namespace CloneCopy.Platform.Unix;

/// <summary>
/// .NET's answer to "is this file read-only?" on Unix, from a mode and an owner: a permission class that
/// may read but not write is read-only; when user, group and other agree, that is the answer; otherwise
/// the class that applies to the current user decides. MSBuild's Copy asks exactly this (FileInfo.IsReadOnly)
/// before deleting a destination and after copying from a read-only source.
/// </summary>
internal static class UnixReadOnly
{
    private static readonly uint EffectiveUser = UnixLibC.GetEUid();

    /// <returns>The answer, or null when it depends on group membership (then FileInfo decides).</returns>
    public static bool? AsDotNetSeesIt(uint mode, uint owner)
    {
        bool user = (mode & 0x100) != 0 && (mode & 0x80) == 0;  // r and not w for the owner
        bool group = (mode & 0x20) != 0 && (mode & 0x10) == 0;
        bool other = (mode & 0x4) != 0 && (mode & 0x2) == 0;
        if (user == group && group == other)
        {
            return user;
        }

        return owner == EffectiveUser ? user : null;
    }
}
#endif
