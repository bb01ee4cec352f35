namespace CloneCopy;

/// <summary>
/// "Which processes hold this file?", asked for the last sentence of MSB3026 and MSB3027 ("The file is locked by: ..."),
/// about the file MSBuild's Copy asks about: the destination. On Linux, macOS and under Wine the real answer is always
/// empty, so a test gives its own answer, per path, to see which file was asked about.
/// </summary>
internal interface ILockedFileMessage
{
    /// <summary>The sentence naming the processes that hold <paramref name="path"/> (a full path), or empty.</summary>
    string For(string path);
}
