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

    public static string Escape(string unescaped)
    {
        if (unescaped.IndexOfAny(SpecialCharacters.ToCharArray()) < 0)
        {
            return unescaped;
        }

        var builder = new StringBuilder(unescaped.Length + 8);
        foreach (char c in unescaped)
        {
            if (SpecialCharacters.IndexOf(c) >= 0)
            {
                builder.Append('%').Append(((int)c).ToString("x2"));
            }
            else
            {
                builder.Append(c);
            }
        }

        return builder.ToString();
    }
}
