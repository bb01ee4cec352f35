namespace LibA;

public static class Messages
{
    public static string Welcome(string name) => LibB.Greeting.ToJson(name);
}
