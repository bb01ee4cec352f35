#if !NET
namespace CloneCopy;

/// <summary>string.Contains(char), which .NET Core 2.1 added: the netstandard2.0 build gets it here, so one source reads the same for both.</summary>
internal static class StringContainsChar
{
    public static bool Contains(this string text, char value) => text.IndexOf(value) >= 0;
}
#endif
