#if NET
using System;
using System.Buffers;
#endif
using System.Text;

namespace CloneCopy;

/// <summary>
/// MSBuild item specs are escaped: '%', '*', '?', '@', '$', '(', ')', ';' and '\'' appear as %XX.
/// A destination built from a real path must be escaped before it becomes an item, or a file called
/// "a%41.txt" would turn into "aA.txt".
/// </summary>
internal static class ItemSpecEscaping
{
    private const string SpecialCharacters = "%*?@$();'";
#if NET
    private static readonly SearchValues<char> Special = SearchValues.Create(SpecialCharacters);

    private static bool ContainsSpecialCharacter(string text) => text.AsSpan().IndexOfAny(Special) >= 0;
#else
    private static readonly char[] Special = SpecialCharacters.ToCharArray();

    private static bool ContainsSpecialCharacter(string text) => text.IndexOfAny(Special) >= 0;
#endif

    public static string Escape(string unescaped)
    {
        if (!ContainsSpecialCharacter(unescaped))
        {
            return unescaped;
        }

        var builder = new StringBuilder(unescaped.Length + 8);
        foreach (char c in unescaped)
        {
            if (SpecialCharacters.Contains(c))
            {
                builder.Append('%').Append(((int)c).ToString("x2", System.Globalization.CultureInfo.InvariantCulture));
            }
            else
            {
                builder.Append(c);
            }
        }

        return builder.ToString();
    }
}
